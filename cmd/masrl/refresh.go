package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/refresh"
)

func refreshCommand() command {
	return command{summary: "propose published versions and retraction/correction notices from arXiv, Crossref, OpenAlex", run: runRefresh}
}

// runRefresh is masrl refresh: it prints the proposed changes as masrl
// diff does and, with --write, writes them in masrl fmt's form unless the
// result has more check errors than the corpus had. Exit 0 with or
// without proposals, 1 when --write was refused, 2 on usage errors or a
// service that failed (then nothing is written).
func runRefresh(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("refresh", "refresh [--write [--record YYYY-MM-DD]] [--corpus DIR] [--arxiv-api URL] [--crossref-api URL] [--openalex-api URL] [--cache DIR]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	write := fs.Bool("write", false, "write the proposals into papers.csv (refused when the result fails the check)")
	record := fs.String("record", "", "with --write, record `YYYY-MM-DD` as the last refresh in the corpus's upkeep.yaml (the home page shows it)")
	withClaims := fs.Bool("claims", true, "also verify the paper's claims before writing; false for corpora other than the survey's")
	var sf intake.Flags
	sf.DeclareScholarly(fs)
	if code, ok := parseNoArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "refresh")
	if *record != "" && (!*write || !release.IsDate(*record)) {
		return fail(exitUsage, "--record %q: want a YYYY-MM-DD date, with --write", *record)
	}
	ck, err := siteconfig.Open(*dir, data.Dir(*dataDir), *profile, siteconfig.OpenOptions{ForEdit: *write})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	client := sf.Ready()
	client.OpenAlexKey = os.Getenv(intake.OpenAlexKeyEnv)
	res, err := refresh.Propose(ctx, ck.Corpus, refresh.Options{Client: client, OpenAlex: client.OpenAlexKey != ""})
	for _, d := range res.Findings {
		fmt.Fprintln(stderr, d.String())
	}
	if err != nil {
		return fail(exitUsage, "%v\nmasrl refresh: no file was changed", err)
	}
	if len(res.Proposals) == 0 {
		fmt.Fprintf(stdout, "%s: no entry has a new published version or notice\n", *dir)
		if *record != "" {
			if err := release.RecordUpkeep(*dir, func(u *release.Upkeep) { u.Refreshed = *record }); err != nil {
				return fail(exitUsage, "%v", err)
			}
		}
		return exitOK
	}
	ed, err := refresh.NewEdit(ck.Corpus, res.Proposals)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	ed.WriteProposed(stdout, stderr, ck, *withClaims)
	if !*write {
		return exitOK
	}
	// The refresh's date is written with the rows it refreshes, in the
	// same transaction.
	if *record != "" {
		if err := ed.Record(*record); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	if _, err := corpus.Edit(ck, ed.Files, corpus.EditOptions{Claims: *withClaims, Apply: applyOptions(stderr)}); err != nil {
		return editFailed(stderr, "refresh", fail, err, func(r *corpus.RefusedError) string {
			return fmt.Sprintf("--write refused: the refreshed corpus has %s where it had %d; no file was changed", diag.Count(r.After, "error"), r.Before)
		})
	}
	ed.WriteWritten(stdout)
	return exitOK
}
