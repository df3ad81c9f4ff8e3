package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/linkcheck"
)

func linksCommand() command {
	return command{summary: "check every URL of the corpus (dead links, permanent redirects)", run: runLinks}
}

// runLinks is masrl links. Exit as masrl check: 0 without errors, 1 with
// errors (dead links), 2 on usage or I/O failure (a corpus that does not
// load, arXiv's or Crossref's API failing or answering something else
// than its answer, no host reachable at all): then the check could not
// run, no link is reported and nothing is recorded. On a terminal, the
// progress goes to stderr.
func runLinks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("links", "links [--corpus DIR] [--format text|github|json] [--arxiv-api URL] [--crossref-api URL] [--per-host N] [--record YYYY-MM-DD]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	format := fs.String("format", "text", "output `format`: text, github (workflow annotations) or json")
	perHost := fs.Int("per-host", 2, "requests at once per host")
	record := fs.String("record", "", "record `YYYY-MM-DD` as the last link check in the corpus's upkeep.yaml once the links are checked (the home page shows it)")
	var sf intake.Flags
	sf.DeclareScholarly(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || !oneOf(*format, "text", "github", "json") || *perHost < 1 || (*record != "" && !release.IsDate(*record)) {
		fs.Usage()
		return exitUsage
	}
	fail := failer(stderr, "links")
	ck, err := siteconfig.Open(*dir, data.Dir(*dataDir), *profile, siteconfig.OpenOptions{})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	checker := &linkcheck.Checker{HTTP: linkcheck.NewHTTPClient(sf.Timeout, nil), Service: sf.Ready(), PerHost: *perHost,
		Progress: linkcheck.TerminalProgress(stderr, "masrl links")}
	rep, err := checker.CheckCorpus(ctx, ck)
	if checker.Progress != nil {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return fail(exitUsage, "%v\nmasrl links: the check could not run: no link was judged, nothing was recorded", err)
	}
	rep.Write(stdout, *format)
	if *record != "" {
		if err := release.RecordUpkeep(*dir, func(u *release.Upkeep) { u.LinksChecked = *record }); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	if *format != "json" {
		fmt.Fprintln(stdout, rep.Summary())
	}
	if rep.Errors > 0 {
		return exitFindings
	}
	return exitOK
}
