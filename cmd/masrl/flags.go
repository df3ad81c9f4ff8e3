package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
)

// defaultCorpus is where the commands look for the corpus when --corpus is
// not given: a directory named corpus in the current one, the layout of a
// list's repository that check.yml also assumes (MASRL_CORPUS_PATH).
const defaultCorpus = "corpus"

// corpusFlag declares --corpus.
func corpusFlag(fs *flag.FlagSet) *string {
	return fs.String("corpus", defaultCorpus, "corpus `directory` (papers.csv, excluded.csv, papers.bib, spotcheck.csv, masrl.yaml)")
}

// dataFlag declares --data, which every command that reads the project's
// data (vocabulary, claims, pool, pages) honours the same way: data.Dir.
func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "`directory` of project data (vocab.yaml, traces.yaml; with --profile survey also claims.yaml, survey-pool.yaml, orchestration.yaml, pages/) laid over the embedded one")
}

// profileFlag declares --profile, which every command that reads a
// corpus honours the same way (listProfile): the survey's claims, pool
// and pages are applied to the survey's list alone.
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("profile", "", "the list's `profile`: survey (the survey's claims, pinned pool, orchestration sub-decisions and pages, for its own list) or none; default: masrl.yaml's profile")
}

// listProfile returns the profile a command applies to the corpus of dir:
// the flag's when given, else the profile of masrl.yaml (config, or the
// corpus directory's), else none.
func listProfile(flagValue, config, dir string) (string, error) {
	if flagValue != "" {
		return flagValue, data.CheckProfile(flagValue)
	}
	cfg, err := listConfig(config, dir)
	return cfg.Profile, err
}

// listConfig reads the list's masrl.yaml (--config, or the corpus
// directory's); a list without one has the zero Config.
func listConfig(config, dir string) (siteconfig.Config, error) {
	path, err := siteconfig.Find(config, dir)
	if err != nil || path == "" {
		return siteconfig.Config{}, err
	}
	cfg, err := siteconfig.Load(path)
	if err != nil {
		return siteconfig.Config{}, err
	}
	return *cfg, nil
}

// needCorpus reports a corpus directory without papers.csv with the flag
// that names it, instead of the bare file error a load would give.
func needCorpus(dir string) error {
	_, err := os.Stat(filepath.Join(dir, corpus.PapersFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no %s in %s: point --corpus at the corpus directory (the one holding papers.csv; default %q)", corpus.PapersFile, dir, defaultCorpus)
	}
	return err
}

// newFlagSet returns a FlagSet for one subcommand that reports errors instead
// of exiting, so that run can map them to exit code 2.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: masrl %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs. It returns ok=false with the exit code to
// use when parsing ended the command: 0 for -h, 2 for a bad flag.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// parseNoArgs is parseFlags for a command that takes flags only: an
// argument left over is a usage error, answered with the usage.
func parseNoArgs(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage, false
	}
	return 0, true
}
