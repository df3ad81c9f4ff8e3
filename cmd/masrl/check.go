package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

func checkCommand() command {
	return command{summary: "validate the corpus against the vocabularies and the paper's claims", run: runCheck}
}

// checkReport is the machine-readable result of masrl check (--format json).
type checkReport struct {
	Corpus     string `json:"corpus"`
	Entries    int    `json:"entries"`
	Exclusions int    `json:"exclusions"`
	Errors     int    `json:"errors"`
	Warnings   int    `json:"warnings"`
	// Claims counts the paper's claims by outcome and ClaimResults has
	// each; both are absent with --claims=false.
	Claims *claimTally `json:"claims,omitempty"`
	// Survey counts the corpus against the survey's pinned pool
	// (data/survey-pool.yaml), which the claims are about; absent with
	// --claims=false.
	Survey       *surveyTally         `json:"survey,omitempty"`
	ClaimResults []corpus.ClaimResult `json:"claim_results,omitempty"`
	// Errata are the acknowledged deviations, where the survey and its
	// CSV disagree for a stated reason, in survey order: the same list as
	// the claims page's errata section.
	Errata      []corpus.Erratum   `json:"errata,omitempty"`
	Diagnostics corpus.Diagnostics `json:"diagnostics"`

	// screened is true for a list with an exclusion log (corpus.Stats's
	// Screened): the text summary of one without counts entries only.
	screened bool
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
	if err := needCorpus(*dir); err != nil {
		fmt.Fprintf(stderr, "masrl check: %v\n", err)
		return exitUsage
	}
	prof, err := listProfile(*profile, "", *dir)
	if err != nil {
		fmt.Fprintf(stderr, "masrl check: %v\n", err)
		return exitUsage
	}
	ck, err := corpus.Open(*dir, data.Dir(*dataDir), prof)
	if err != nil {
		fmt.Fprintf(stderr, "masrl check: %v\n", err)
		return exitUsage
	}
	rep := checkCorpus(*dir, ck, *withClaims)
	writeCheckReport(stdout, *format, rep)
	if rep.Errors > 0 {
		return exitFindings
	}
	return exitOK
}

// checkCorpus reports the check of a corpus and, withClaims, the paper's
// claims on it: the report masrl check prints, which masrl add prints
// after writing.
func checkCorpus(dir string, ck *corpus.Checked, withClaims bool) checkReport {
	c, v, claims := ck.Corpus, ck.Vocabulary, ck.Claims
	ds := slices.Clone(ck.Diagnostics())
	var tally *claimTally
	var survey *surveyTally
	var results []corpus.ClaimResult
	if withClaims && claims != nil {
		results = corpus.VerifyClaims(c, v, claims)
		ds = append(ds, corpus.ClaimDiagnostics(results)...)
		ds.Sort()
		n := corpus.ClaimCounts(results)
		tally = &claimTally{Held: n[corpus.Holds], Acknowledged: n[corpus.Acknowledged], Failed: n[corpus.Fails] + n[corpus.Stale]}
		if p := claims.Pool; p != nil {
			survey = &surveyTally{Paper: p.Paper, Pool: len(p.Retained), Missing: p.Missing(c), Added: p.Added(c)}
		}
	}
	return checkReport{
		Corpus: dir, Entries: len(c.Papers), Exclusions: len(c.Excluded),
		screened: c.HasExcluded || len(v.FieldsOf(corpus.ExcludedFile)) > 0,
		Errors:   ds.Count(corpus.Error), Warnings: ds.Count(corpus.Warning), Diagnostics: ds,
		Claims: tally, ClaimResults: results, Errata: corpus.Errata(results), Survey: survey,
	}
}

func writeCheckReport(w io.Writer, format string, rep checkReport) {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
		return
	case "github":
		for _, d := range rep.Diagnostics {
			io.WriteString(w, githubAnnotation(d)+"\n")
		}
	default:
		for _, d := range rep.Diagnostics {
			io.WriteString(w, d.String()+"\n")
		}
	}
	totals := count(rep.Entries, "entry")
	if rep.screened {
		totals += ", " + count(rep.Exclusions, "exclusion")
	}
	fmt.Fprintf(w, "%s: %s: %s, %s", rep.Corpus, totals, count(rep.Errors, "error"), count(rep.Warnings, "warning"))
	if s := rep.Survey; s != nil {
		fmt.Fprintf(w, "; survey pool %s: %d in the survey", s.Paper, s.Pool)
		if len(s.Missing) > 0 {
			fmt.Fprintf(w, " (%d missing)", len(s.Missing))
		}
		fmt.Fprintf(w, " + %d added since", len(s.Added))
	}
	if rep.Claims != nil {
		fmt.Fprintf(w, "; claims: %d held, %d acknowledged, %d failed",
			rep.Claims.Held, rep.Claims.Acknowledged, rep.Claims.Failed)
	}
	io.WriteString(w, "\n")
}

// claimTally counts the paper's claims by outcome; a stale acknowledgement
// counts as failed, because it fails the check.
type claimTally struct {
	Held         int `json:"held"`
	Acknowledged int `json:"acknowledged"`
	Failed       int `json:"failed"`
}

// surveyTally places the corpus against the survey's pool: the claims are
// checked on the pool's entries only, so rows added since move none of them.
type surveyTally struct {
	Paper   string   `json:"paper"`
	Pool    int      `json:"pool"`              // retained entries the paper describes
	Missing []string `json:"missing,omitempty"` // pool keys papers.csv no longer has
	Added   []string `json:"added"`             // keys added since the survey
}

// githubAnnotation formats a finding as a GitHub Actions workflow command.
func githubAnnotation(d corpus.Diagnostic) string {
	return annotation{
		level: d.Severity.String(), file: d.Pos.File, line: d.Pos.Line, col: d.Pos.Col,
		title: d.Field, message: d.Detail(),
	}.String()
}

func oneOf(s string, allowed ...string) bool {
	return slices.Contains(allowed, s)
}
