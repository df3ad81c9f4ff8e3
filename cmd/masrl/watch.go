package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/watch"
)

func watchCommand() command {
	return command{summary: "find candidate papers citing or cited by retained entries; apply a triage file", run: runWatch}
}

// runWatch is masrl watch. Without --apply it writes the ranked
// candidates to the triage file (exit 0; 2 on usage or a service that
// failed). With --apply it reads the decisions: rejected candidates are
// appended to excluded.csv in fmt's form unless the check gets worse
// (exit 1, nothing written), accepted ones are printed as masrl add
// commands.
func runWatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("watch", "watch [--corpus DIR] [--since YYYY-MM-DD] [--min N] [--max-pages N] [--out FILE] [--s2-api URL] | watch --apply FILE [--date YYYY-MM-DD]", stderr)
	dir := corpusFlag(fs)
	dataDir := dataFlag(fs)
	profile := profileFlag(fs)
	since := fs.String("since", "", "keep candidates published on or after `YYYY-MM-DD`")
	minimum := fs.Int("min", 2, "the fewest retained entries a candidate must cite or be cited by")
	out := fs.String("out", "triage.csv", "the triage `file` to write")
	apply := fs.String("apply", "", "read the decisions of a triage `file` instead of searching")
	date := fs.String("date", time.Now().UTC().Format(time.DateOnly), "date_screened of the excluded records --apply writes")
	maxPages := fs.Int("max-pages", watch.DefaultMaxPages, "the most `pages` of 1000 citations (and of references) read per entry; Semantic Scholar lists 9,999 at most, and a list cut short is a warning with the count read")
	claims := fs.Bool("claims", true, "also verify the paper's claims before writing; false for corpora other than the survey's")
	var sf intake.Flags
	fs.StringVar(&sf.Client.S2API, "s2-api", intake.DefaultS2API, "Semantic Scholar Graph API base `URL` (masrl asks URL/paper/ID/citations and /references)")
	sf.DeclareCache(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || *minimum < 1 || *maxPages < 1 || (*since != "" && !release.IsDate(*since)) || !release.IsDate(*date) {
		fs.Usage()
		return exitUsage
	}
	fail := failer(stderr, "watch")
	ck, err := siteconfig.Open(*dir, data.Dir(*dataDir), *profile, siteconfig.OpenOptions{ForEdit: *apply != ""})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if *apply != "" {
		return applyTriage(ck, *apply, *date, *claims, stdout, stderr)
	}
	cands, ds, err := watch.Find(ctx, ck.Corpus, watch.Options{Client: sf.Ready(), Min: *minimum, Since: *since, MaxPages: *maxPages})
	for _, d := range ds {
		fmt.Fprintln(stderr, d.String())
	}
	if err != nil {
		return fail(exitUsage, "%v\nmasrl watch: no file was written", err)
	}
	if err := watch.WriteTriageFile(*out, cands); err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stdout, "%s: %s connected to at least %d retained entries; fill in the decision column (add, or exclude STAGE: reason) and run masrl watch --apply %s\n",
		*out, diag.Count(len(cands), "candidate"), *minimum, *out)
	return exitOK
}

// applyTriage is masrl watch --apply: the accepted candidates are
// printed as masrl add commands, and the rejected ones appended to
// excluded.csv (watch.Exclude) through corpus.Edit.
func applyTriage(ck *corpus.Checked, file, date string, withClaims bool, stdout, stderr io.Writer) int {
	fail := failer(stderr, "watch")
	src, err := os.ReadFile(file)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	decisions, err := watch.ReadTriage(file, src, ck.Vocabulary)
	if err != nil {
		return fail(exitFindings, "%v\nmasrl watch: no file was changed", err)
	}
	watch.WriteAddCommands(stdout, decisions, ck.Corpus.Dir)
	x, err := watch.Exclude(ck.Corpus, decisions, date)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if len(x.Records) == 0 {
		return exitOK
	}
	if _, err := corpus.Edit(ck, x.Changes, corpus.EditOptions{Claims: withClaims, Apply: applyOptions(stderr)}); err != nil {
		return editFailed(stderr, "watch", fail, err, func(r *corpus.RefusedError) string {
			return fmt.Sprintf("the exclusions are refused: the corpus would have %s where it had %d; no file was changed", diag.Count(r.After, "error"), r.Before)
		})
	}
	x.WriteReport(stdout)
	return exitOK
}
