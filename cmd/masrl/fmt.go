package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

func fmtCommand() command {
	return command{summary: "rewrite (or --check) the corpus files in their canonical form", run: runFmt}
}

// runFmt rewrites papers.csv, excluded.csv, papers.bib and spotcheck.csv
// in the canonical form of corpus.Format, like gofmt: every file is
// formatted before any is written (corpus.FormatDir), so a file that
// does not parse leaves all of them untouched. With --check nothing is
// written: the files that would change are listed and the exit code is
// 1. Without it the files are written as one transaction (corpus.Apply)
// and listed only once they are.
func runFmt(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "fmt")
	fset := newFlagSet("fmt", "fmt [--check] [--corpus DIR]", stderr)
	dir := fset.String("corpus", corpus.DefaultDir, "corpus `directory`")
	check := fset.Bool("check", false, "do not write; list the files that are not in canonical form and exit 1 if any")
	if code, ok := parseFlags(fset, args); !ok {
		return code
	}
	if fset.NArg() > 0 {
		fset.Usage()
		return exitUsage
	}
	if !*check {
		if err := corpus.Interrupted(*dir); err != nil {
			return editFailer(stderr, "fmt")(exitUsage, "%v", err)
		}
	}
	r := corpus.FormatDir(*dir)
	r.WriteProblems(stderr, "masrl fmt")
	if len(r.Problems) > 0 {
		return fail(exitUsage, "no file was changed")
	}
	// The files are listed once they are written: a write that fails
	// lists none, since the edit is all or none (corpus.Apply).
	if !*check {
		if err := corpus.Apply(*dir, r.Changes, applyOptions(stderr)); err != nil {
			return editFailed(stderr, "fmt", editFailer(stderr, "fmt"), err, nil)
		}
	}
	for _, name := range r.Names {
		fmt.Fprintln(stdout, filepath.Join(*dir, name))
	}
	if *check && len(r.Names) > 0 {
		return exitFindings
	}
	return exitOK
}
