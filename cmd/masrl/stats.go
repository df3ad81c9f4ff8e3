package main

import (
	"context"
	"io"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
)

func statsCommand() command {
	return command{summary: "print coverage statistics (histograms, cross-tabs, exclusion log)", run: runStats}
}

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := failer(stderr, "stats")
	fs := newFlagSet("stats", "stats [--corpus DIR] [--data DIR] [--profile survey] [--format markdown|json|csv] [--crosstab FIELD,FIELD]... [--present-only] [--survey]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	format := fs.String("format", "markdown", "output `format`: markdown, json or csv")
	presentOnly := fs.Bool("present-only", false, "leave out values no row uses")
	survey := fs.Bool("survey", false, "count the survey's pool only ("+corpus.PoolFile+"): the records of the paper's version, not those added since")
	var extra corpus.CrossTabs
	fs.Var(&extra, "crosstab", "add a cross-tab of two controlled fields of one file, as `ROWS,COLS` (repeatable)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || !oneOf(*format, "markdown", "json", "csv") {
		fs.Usage()
		return exitUsage
	}
	if err := corpus.NeedPapers(*dir); err != nil {
		return fail(exitUsage, "%v", err)
	}
	// The corpus is streamed, not opened (corpus.Open holds every row):
	// the data is read as Open reads it.
	d, err := siteconfig.LoadData(data.Dir(*dataDir), *profile, *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	v := d.Vocabulary
	if err := extra.Check(v); err != nil {
		return fail(exitUsage, "--crosstab %v", err)
	}
	// Streamed: the rows are counted as they are read, so a corpus of
	// millions of rows needs memory for its keys only, and none when the
	// markdown tables, which print counts, are all that is asked for.
	opt := corpus.StatsOptions{Extra: extra, CountsOnly: *format == "markdown", PresentOnly: *presentOnly}
	if *survey {
		if opt.Pool, err = d.SurveyPool(); err != nil {
			return fail(exitUsage, "--survey: %v", err)
		}
	}
	s, err := corpus.StreamStats(*dir, v, opt)
	if err != nil {
		return refuseUnread("stats", err, stderr)
	}
	if err := s.Write(stdout, *format, v); err != nil {
		return fail(exitUsage, "%v", err)
	}
	return exitOK
}

// refuseUnread reports err of command cmd (corpus.WriteUnread): a
// corpus whose CSV files do not read with exit code 1 and no numbers,
// any other failure with exit code 2.
func refuseUnread(cmd string, err error, stderr io.Writer) int {
	if corpus.WriteUnread(stderr, "masrl "+cmd, err) {
		return exitFindings
	}
	return exitUsage
}
