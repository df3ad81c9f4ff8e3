package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

func fmtCommand() command {
	return command{summary: "rewrite (or --check) the corpus files in their canonical form", run: runFmt}
}

// runFmt rewrites papers.csv, excluded.csv, papers.bib and spotcheck.csv
// in the canonical form of corpus.Format, like gofmt: every file is
// formatted before any is written, so a file that does not parse leaves
// all of them untouched. With --check nothing is written: the files that
// would change are listed and the exit code is 1. Without it the files
// are written as one transaction (corpus.Apply) and listed only once they
// are.
func runFmt(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "fmt")
	fset := newFlagSet("fmt", "fmt [--check] [--corpus DIR]", stderr)
	dir := fset.String("corpus", defaultCorpus, "corpus `directory`")
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
	// A list's own vocabulary orders the values of its multi-valued
	// fields; one that does not parse is check's finding, not fmt's.
	v, _ := corpus.ListVocabulary(*dir)
	changed, failed := map[string][]byte{}, false
	var order []string
	for _, name := range corpus.FormatFiles() {
		path := filepath.Join(*dir, name)
		src, err := corpus.ReadFile(*dir, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // check reports missing files
		}
		if err != nil {
			fmt.Fprintf(stderr, "masrl fmt: %v\n", err)
			failed = true
			continue
		}
		out, err := corpus.FormatWith(path, src, v)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed = true
			continue
		}
		if !bytes.Equal(out, src) {
			changed[name] = out
			order = append(order, name)
		}
	}
	if failed {
		return fail(exitUsage, "no file was changed")
	}
	// The files are listed once they are written: a write that fails
	// lists none, since the edit is all or none (corpus.Apply).
	if !*check {
		if err := corpus.Apply(*dir, changed, applyOptions(stderr)); err != nil {
			if half := (*corpus.HalfAppliedError)(nil); errors.As(err, &half) {
				return fail(exitUsage, "%v", err)
			}
			return editFailer(stderr, "fmt")(exitUsage, "%v", err)
		}
	}
	for _, name := range order {
		fmt.Fprintln(stdout, filepath.Join(*dir, name))
	}
	if *check && len(order) > 0 {
		return exitFindings
	}
	return exitOK
}
