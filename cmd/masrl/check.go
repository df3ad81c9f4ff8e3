package main

import (
	"context"
	"io"
	"slices"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
)

func checkCommand() command {
	return command{summary: "validate the corpus against the vocabularies and the paper's claims", run: runCheck}
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "check")
	fs := newFlagSet("check", "check [--corpus DIR] [--data DIR] [--profile survey] [--format text|github|json] [--claims=false]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	format := fs.String("format", "text", "output `format`: text, github (workflow annotations) or json")
	withClaims := fs.Bool("claims", true, "also verify the list's claims (claims.yaml beside papers.csv, or the survey's with --profile survey); false skips them")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || !oneOf(*format, "text", "github", "json") {
		fs.Usage()
		return exitUsage
	}
	// The check publishes nothing: the files' text is not kept.
	ck, err := siteconfig.Open(*dir, data.Dir(*dataDir), *profile, siteconfig.OpenOptions{Check: corpus.CheckOptions{NoSources: true}})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	rep := ck.Report(*dir, *withClaims)
	rep.Write(stdout, *format)
	if rep.Errors > 0 {
		return exitFindings
	}
	return exitOK
}

func oneOf(s string, allowed ...string) bool {
	return slices.Contains(allowed, s)
}
