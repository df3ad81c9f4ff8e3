package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/upkeep/citation"
)

func citeCommand() command {
	return command{summary: "write CITATION.cff and .zenodo.json from masrl.yaml and the corpus", run: runCite}
}

var isoDate = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$`)

// runCite is masrl cite. The files depend only on masrl.yaml, the corpus
// and the flags, so a release workflow can regenerate them and --check
// can tell a stale one (exit 1).
func runCite(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("cite", "cite [--corpus DIR] [--config FILE] [--out DIR] [--version V] [--date YYYY-MM-DD] [--check] [--snapshot]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	config := fs.String("config", "", "`file` masrl.yaml (default: masrl.yaml in the corpus directory)")
	out := fs.String("out", ".", "`directory` to write CITATION.cff and .zenodo.json in, made when missing (the repository's top)")
	version := fs.String("version", "", "the release's version, e.g. v3 (a tag); empty for a snapshot")
	date := fs.String("date", "", "the release date `YYYY-MM-DD`; empty leaves it out")
	snapshot := fs.Bool("snapshot", false, "also record the release: copy the corpus files into the corpus's releases/VERSION/ with their hash (needs --version and --date); the site shows it")
	check := fs.Bool("check", false, "do not write; exit 1 if either file is missing or differs")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "cite")
	if *date != "" && !isoDate.MatchString(*date) {
		return fail(exitUsage, "--date %q: want YYYY-MM-DD", *date)
	}
	if *snapshot && (*version == "" || *date == "" || *check) {
		return fail(exitUsage, "--snapshot needs --version and --date, and not --check")
	}
	// A corpus whose last edit was interrupted has files that may not
	// agree: nothing is cited or released from it.
	if !*check {
		if err := corpus.Interrupted(*dir); err != nil {
			return fail(exitUsage, "%v; no file was changed", err)
		}
	}
	// A release that would be refused changes no file, CITATION.cff
	// included.
	if *snapshot {
		if err := release.CanSnapshot(*dir, *version, *date); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	ck, err := openForUpdate(*dir, *dataDir, *profile)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	c := ck.Corpus
	path, err := siteconfig.Find(*config, *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	cfg := &siteconfig.Config{}
	if path != "" {
		if cfg, err = siteconfig.Load(path); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	hash, err := corpus.ContentHash(*dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	in := &citation.Input{
		Title: cfg.TitleOr(ck.ListTitle()), Description: cfg.Description, Config: cfg,
		Papers: len(c.Papers), Exclusions: len(c.Excluded), Hash: hash, Version: *version, Date: *date,
	}
	files, err := citation.Files(in)
	if errors.Is(err, citation.ErrNoAuthors) && path == "" {
		return fail(exitUsage, "%v; there is no masrl.yaml in %s (or name one with --config)", err, *dir)
	} else if err != nil {
		return fail(exitUsage, "%v", err)
	}
	stale := citation.Stale(*out, files)
	if *check {
		for _, p := range stale {
			fmt.Fprintln(stdout, p)
		}
		if len(stale) > 0 {
			return fail(exitFindings, "%d of the files above are missing or out of date; run masrl cite", len(stale))
		}
		return exitOK
	}
	// With --snapshot the release is written in full first, beside its
	// place; CITATION.cff and .zenodo.json are written only when it was,
	// and the release is put in place with one rename after them: every
	// failure leaves no file changed (the two files get their old content
	// back). A process killed between the two leaves the new citation
	// files and no release, and the same masrl cite --snapshot then
	// completes it.
	var staged *release.Staged
	if *snapshot {
		if staged, err = release.Stage(*dir, *version, *date); err != nil {
			return fail(exitUsage, "%v; no file was changed", err)
		}
		defer staged.Discard() // gone after Commit; cleans up after a failure
		if staged.Hash != hash {
			return fail(exitUsage, "the corpus changed while masrl cite ran (hash %s, then %s); run it again", hash, staged.Hash)
		}
	}
	if err := makeOutDir(*out); err != nil {
		return fail(exitUsage, "%v", err)
	}
	var commit func() error
	if staged != nil {
		commit = staged.Commit
	}
	if err := citation.Write(*out, files, commit); err != nil {
		return fail(exitUsage, "%v", err)
	}
	for _, p := range stale {
		fmt.Fprintln(stdout, p)
	}
	if staged != nil {
		fmt.Fprintf(stdout, "%s (%s)\n", staged.Dir(), staged.Hash)
	}
	return exitOK
}

// makeOutDir makes cite's --out directory when it is missing, as masrl
// build makes its output directory: a release job writes the files into
// a fresh folder. A path that is something else is an error that names
// it and says what --out wants.
func makeOutDir(dir string) error {
	const want = "name the directory to write CITATION.cff and .zenodo.json in (made when missing; default: the current one)"
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("--out %s is a file, not a directory: %s", dir, want)
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("--out %s: cannot make the directory (%w): %s", dir, err, want)
	}
	return nil
}
