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
	Claims *corpus.ClaimTally `json:"claims,omitempty"`
	// Survey counts the corpus against the survey's pinned pool
	// (data/survey-pool.yaml), which the claims are about; absent with
	// --claims=false.
	Survey       *corpus.SurveyTally  `json:"survey,omitempty"`
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
	if err := needCorpus(*dir); err != nil {
		return fail(exitUsage, "%v", err)
	}
	prof, err := listProfile(*profile, "", *dir)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	// The check publishes nothing: the files' text is not kept.
	ck, err := corpus.OpenWith(*dir, data.Dir(*dataDir), prof, corpus.CheckOptions{NoSources: true})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	rep := checkCorpus(*dir, ck, *withClaims)
	writeCheckReport(stdout, *format, rep)
	if rep.Errors > 0 {
		return exitFindings
	}
	return exitOK
}

// checkCorpus reports the verdict of a corpus (corpus.Checked.Verdict)
// and, withClaims, the claims on it: the report masrl check prints, which
// masrl add prints after writing.
func checkCorpus(dir string, ck *corpus.Checked, withClaims bool) checkReport {
	v := ck.Verdict(withClaims)
	return checkReport{
		Corpus: dir, Entries: len(ck.Corpus.Papers), Exclusions: len(ck.Corpus.Excluded),
		screened: ck.Corpus.HasExcluded || len(ck.Vocabulary.FieldsOf(corpus.ExcludedFile)) > 0,
		Errors:   v.Errors(), Warnings: v.Warnings(), Diagnostics: v.Diagnostics,
		Claims: v.Tally, ClaimResults: v.Claims, Errata: v.Errata, Survey: v.Survey,
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
