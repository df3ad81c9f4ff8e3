package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
// would change are listed and the exit code is 1.
func runFmt(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
	changed, failed := map[string][]byte{}, false
	var order []string
	for _, name := range corpus.FormatFiles() {
		path := filepath.Join(*dir, name)
		src, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // check reports missing files
		}
		if err != nil {
			fmt.Fprintf(stderr, "masrl fmt: %v\n", err)
			failed = true
			continue
		}
		out, err := corpus.Format(path, src)
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
		fmt.Fprintf(stderr, "masrl fmt: no file was changed\n")
		return exitUsage
	}
	for _, name := range order {
		fmt.Fprintln(stdout, filepath.Join(*dir, name))
	}
	if *check {
		if len(order) > 0 {
			return exitFindings
		}
		return exitOK
	}
	if err := corpus.WriteFiles(*dir, changed); err != nil {
		fmt.Fprintf(stderr, "masrl fmt: %v\n", err)
		return exitUsage
	}
	return exitOK
}
