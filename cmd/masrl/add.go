package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
	"golang.org/x/term"
)

func addCommand() command {
	return command{summary: "add a paper by arXiv id, arXiv URL or DOI (fetches its metadata)", run: runAdd}
}

// runAdd is masrl add: intake.Client.Add drafts a row and a BibTeX entry
// from arXiv's or doi.org's metadata (asking a person on a terminal for
// what is missing), corpus.Edit checks the corpus as it would be with
// them and writes both files in canonical form as one transaction, then
// the check and the diff are printed. Exit 1: the paper is already in
// the corpus, the service knows no such id, or the new corpus fails the
// check; exit 2: usage, a tag outside the vocabulary, a network failure.
// In every failure no file changes.
func runAdd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("add", "add ID|--from-issue FILE [--tag FIELD=VALUE]... [--set COLUMN=VALUE]... [--one-liner TEXT] [--key KEY] [--corpus DIR] [--data DIR] [--profile survey]", stderr)
	var r intake.Request
	var client intake.Client
	dir := fs.String("corpus", corpus.DefaultDir, "corpus `directory`")
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	fs.Func("tag", "a controlled tag `FIELD=VALUE` (repeat for each of the eight fields)", func(s string) error {
		r.Tags = append(r.Tags, s)
		return nil
	})
	fs.Func("set", "a free-text `COLUMN=VALUE` of papers.csv, such as a list's own columns (repeat; controlled fields take --tag, the key --key)", func(s string) error {
		r.Sets = append(r.Sets, s)
		return nil
	})
	fs.StringVar(&r.OneLiner, "one-liner", "", "the entry's one-line summary")
	fs.StringVar(&r.Key, "key", "", "the entry's `key` (derived from the title or first author when absent)")
	fs.StringVar(&r.Notes, "notes", "", "the notes column")
	fs.StringVar(&client.ArxivAPI, "arxiv-api", intake.DefaultArxivAPI, "arXiv query API `URL`")
	fs.StringVar(&client.DOIAPI, "doi-api", intake.DefaultDOIAPI, "DOI resolver `URL` (content negotiation)")
	timeout := fs.Duration("timeout", 30*time.Second, "time allowed for fetching the metadata")
	fromIssue := fs.String("from-issue", "", "read the id, tags, one-liner, key and notes from the body of a suggest-a-paper issue in `FILE` (flags given too win)")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		r.ID, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if r.ID == "" && fs.NArg() == 1 {
		r.ID = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	fail := editFailer(stderr, "add")
	if *fromIssue != "" {
		if err := r.FromIssueFile(*fromIssue, *dir, data.Dir(*dataDir)); err != nil {
			return fail(exitFindings, "%v", err)
		}
	}
	if r.ID == "" {
		fs.Usage()
		return exitUsage
	}
	d, err := siteconfig.LoadData(data.Dir(*dataDir), *profile, *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	// Ask only a person: on CI or in a pipe a missing value is an error.
	interactive := term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
	a, err := client.Add(ctx, *dir, d, r, intake.Dialogue{In: os.Stdin, Out: stdout, Interactive: interactive})
	if fe := (*intake.FlagErrors)(nil); errors.As(err, &fe) {
		for _, e := range fe.Errs {
			fmt.Fprintf(stderr, "masrl add: %s %s\n", fe.Flag, e)
		}
	}
	if err != nil {
		code := exitUsage
		if intake.Refused(err) {
			code = exitFindings
		}
		return fail(code, "%v", err)
	}
	p, err := corpus.Edit(a.Standing, a.Changes, corpus.EditOptions{Claims: true, Apply: applyOptions(stderr)})
	if err != nil {
		return editFailed(stderr, "add", fail, err, func(*corpus.RefusedError) string {
			return "the new entry is refused: it fails the check"
		})
	}
	a.WriteAdded(stdout, p)
	return exitOK
}
