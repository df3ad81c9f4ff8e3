package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/refresh"
)

func refreshCommand() command {
	return command{summary: "propose published versions and retraction/correction notices from arXiv, Crossref, OpenAlex", run: runRefresh}
}

// openAlexKeyEnv names the environment variable that holds an OpenAlex
// API key; without it OpenAlex is not asked.
const openAlexKeyEnv = intake.OpenAlexKeyEnv

// openForUpdate opens the corpus masrl refresh, links and watch work on,
// through corpus.Open like every other command, so that --data and
// --profile are honoured the same way.
func openForUpdate(dir, dataDir, profile string) (*corpus.Checked, error) {
	if err := needCorpus(dir); err != nil {
		return nil, err
	}
	prof, err := listProfile(profile, "", dir)
	if err != nil {
		return nil, err
	}
	return corpus.Open(dir, data.Dir(dataDir), prof)
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
	// recorded notes the refresh in upkeep.yaml once it has been written.
	recorded := func() int {
		if *record == "" {
			return exitOK
		}
		if err := release.RecordUpkeep(*dir, func(u *release.Upkeep) { u.Refreshed = *record }); err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	}
	if *write {
		if err := corpus.Interrupted(*dir); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	ck, err := openForUpdate(*dir, *dataDir, *profile)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	c, v := ck.Corpus, ck.Vocabulary
	var claims *corpus.Claims
	if *withClaims {
		claims = ck.Claims
	}
	client := sf.Ready()
	client.OpenAlexKey = os.Getenv(openAlexKeyEnv)
	res, err := refresh.Propose(ctx, c, refresh.Options{Client: client, OpenAlex: client.OpenAlexKey != ""})
	for _, d := range res.Findings {
		fmt.Fprintln(stderr, d.String())
	}
	if err != nil {
		return fail(exitUsage, "%v\nmasrl refresh: no file was changed", err)
	}
	if len(res.Proposals) == 0 {
		fmt.Fprintf(stdout, "%s: no entry has a new published version or notice\n", *dir)
		if *write {
			return recorded()
		}
		return exitOK
	}
	ed, err := refresh.NewEdit(c, res.Proposals)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	for _, p := range res.Proposals {
		fmt.Fprintf(stdout, "%s: %s: %s (%s)\n", p.Pos, p.Key, strings.Join(p.Columns(), ", "), strings.Join(p.Sources, "; "))
	}
	name, bibName := filepath.Join(*dir, corpus.PapersFile), filepath.Join(*dir, corpus.BibFile)
	if ed.BibErr != nil {
		// A papers.bib that does not parse (masrl check reports
		// where): the rows are still refreshed, and this says which
		// entries to mend by hand.
		fmt.Fprintf(stderr, "masrl refresh: %s is not updated: %v\n", bibName, ed.BibErr)
	}
	for _, d := range ed.BibFindings {
		fmt.Fprintln(stderr, d.String())
	}
	for _, ch := range ed.BibChanged {
		fmt.Fprintln(stdout, ch.String())
	}
	files, older, newer, bibChanged := ed.Files, ed.Before, ed.After, ed.BibChanged
	d := corpus.DiffCorpora(older, newer, v, claims)
	d.Old, d.New = "before", "after refresh"
	io.WriteString(stdout, "\n"+diffMarkdown(&d, len(older.Papers), len(newer.Papers)))
	if !*write {
		return exitOK
	}
	// The refresh's date is recorded with the files it refreshes, in the
	// same transaction.
	if *record != "" {
		b, err := release.UpkeepRecorded(*dir, func(u *release.Upkeep) { u.Refreshed = *record })
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		files[release.UpkeepFile] = b
	}
	pc, err := checkProposed(*dir, ck, files, *withClaims)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if pc.Worse() {
		writeCheckReport(stderr, "text", pc.After)
		return fail(exitFindings, "--write refused: the refreshed corpus has %s where it had %d; no file was changed", count(pc.After.Errors, "error"), pc.Before.Errors)
	}
	if err := pc.Proposal.Apply(applyOptions(stderr)); err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "\nwrote %s: %s\n", name, count(len(res.Proposals), "entry"))
	if len(bibChanged) > 0 {
		fmt.Fprintf(stdout, "wrote %s: %s\n", bibName, count(len(bibChanged), "entry"))
	}
	return exitOK
}
