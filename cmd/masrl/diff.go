package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
)

func diffCommand() command {
	return command{summary: "compare two corpus versions: entries, moved counts, claims", run: runDiff}
}

func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "diff")
	fs := newFlagSet("diff", "diff [--format markdown|json] [--data DIR] [--profile survey] OLD NEW  (corpus directories or papers.csv files)", stderr)
	format := fs.String("format", "markdown", "output `format`: markdown (a pull-request comment) or json")
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 || !oneOf(*format, "markdown", "json") {
		fs.Usage()
		return exitUsage
	}
	// Each argument's error names it, OLD or NEW: a path alone does not
	// say which of the two a user mistyped.
	older, err := corpus.LoadVersion(fs.Arg(0))
	if err != nil {
		return refuseUnread("diff", fmt.Errorf("OLD: %w", err), stderr)
	}
	newer, err := corpus.LoadVersion(fs.Arg(1))
	if err != nil {
		return refuseUnread("diff", fmt.Errorf("NEW: %w", err), stderr)
	}
	// The claims are the new corpus's (its profile, or its own claims.yaml).
	newDir := corpus.VersionDir(fs.Arg(1))
	dd, err := siteconfig.LoadData(data.Dir(*dataDir), *profile, newDir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	d := corpus.DiffCorpora(older, newer, dd.Vocabulary, dd.Claims)
	d.Old, d.New = fs.Arg(0), fs.Arg(1)
	if err := d.Write(stdout, *format, len(older.Papers), len(newer.Papers)); err != nil {
		return fail(exitUsage, "%v", err)
	}
	return exitOK
}
