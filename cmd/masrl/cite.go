package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/citation"
)

func citeCommand() command {
	return command{summary: "write CITATION.cff and .zenodo.json from masrl.yaml and the corpus", run: runCite}
}

// runCite is masrl cite (citation.NewPlan, Plan.Cite). The files depend
// only on masrl.yaml, the corpus and the flags, so a release workflow can
// regenerate them and --check can tell a stale one (exit 1).
func runCite(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("cite", "cite [--corpus DIR] [--config FILE] [--out DIR] [--version V] [--date YYYY-MM-DD] [--check] [--snapshot]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	var req citation.Request
	fs.StringVar(&req.Config, "config", "", "`file` masrl.yaml (default: masrl.yaml in the corpus directory)")
	fs.StringVar(&req.Out, "out", ".", "`directory` to write CITATION.cff and .zenodo.json in, made when missing (the repository's top)")
	fs.StringVar(&req.Version, "version", "", "the release's version, e.g. v3 (a tag); empty for a snapshot")
	fs.StringVar(&req.Date, "date", "", "the release date `YYYY-MM-DD`; empty leaves it out")
	fs.BoolVar(&req.Snapshot, "snapshot", false, "also record the release: copy the corpus files into the corpus's releases/VERSION/ with their hash (needs --version and --date); the site shows it")
	fs.BoolVar(&req.Check, "check", false, "do not write; exit 1 if either file is missing or differs")
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "cite")
	if err := citation.Refuse(*dir, req); err != nil {
		return fail(exitUsage, "%v", err)
	}
	ck, err := siteconfig.Open(*dir, data.Dir(*dataDir), *profile, siteconfig.OpenOptions{})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	plan, err := citation.NewPlan(ck, req)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if req.Check {
		for _, p := range plan.Stale {
			fmt.Fprintln(stdout, p)
		}
		if len(plan.Stale) > 0 {
			return fail(exitFindings, "%d of the files above are missing or out of date; run masrl cite", len(plan.Stale))
		}
		return exitOK
	}
	staged, err := plan.Cite()
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	for _, p := range plan.Stale {
		fmt.Fprintln(stdout, p)
	}
	if staged != nil {
		fmt.Fprintf(stdout, "%s (%s)\n", staged.Dir(), staged.Hash)
	}
	return exitOK
}
