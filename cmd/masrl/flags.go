package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus"
)

// corpusFlag declares --corpus.
func corpusFlag(fs *flag.FlagSet) *string {
	return fs.String("corpus", corpus.DefaultDir, "corpus `directory` (papers.csv, excluded.csv, papers.bib, spotcheck.csv, masrl.yaml)")
}

// dataFlag declares --data, which every command that reads the project's
// data (vocabulary, claims, pool, pages) honours the same way: data.Dir.
func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "`directory` of project data (vocab.yaml, traces.yaml; with --profile survey also claims.yaml, survey-pool.yaml, orchestration.yaml, pages/) laid over the embedded one")
}

// profileFlag declares --profile, which every command that reads a
// corpus honours the same way (siteconfig.Profile): the survey's claims, pool
// and pages are applied to the survey's list alone.
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("profile", "", "the list's `profile`: survey (the survey's claims, pinned pool, orchestration sub-decisions and pages, for its own list) or none; default: masrl.yaml's profile")
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

// parseFiles parses flags that may come before or after the file
// arguments ("trace stats FILE --format json"), as the synopsis
// writes them; arguments after "--" are never flags. With no file
// argument and a none message, it says "masrl COMMAND: none" and the
// usage, and returns exitUsage.
func parseFiles(fs *flag.FlagSet, args []string, none string) (files []string, code int, ok bool) {
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return nil, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	files = append(files, rest...)
	if len(files) == 0 && none != "" {
		fmt.Fprintf(fs.Output(), "masrl %s: %s\n", fs.Name(), none)
		fs.Usage()
		return nil, exitUsage, false
	}
	return files, 0, true
}
