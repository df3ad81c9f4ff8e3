package corpus

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/masrl/masrl/internal/diag"
)

// CheckReport is what masrl check reports of a corpus: its totals and the
// Verdict (Checked.Verdict), as text, GitHub workflow annotations or JSON
// (CheckReport.Write). masrl add, import, refresh and watch print the same
// report of the corpus they leave.
type CheckReport struct {
	Corpus     string `json:"corpus"`
	Entries    int    `json:"entries"`
	Exclusions int    `json:"exclusions"`
	Errors     int    `json:"errors"`
	Warnings   int    `json:"warnings"`
	// Claims counts the paper's claims by outcome and ClaimResults has
	// each; both are absent with --claims=false.
	Claims *ClaimTally `json:"claims,omitempty"`
	// Survey counts the corpus against the survey's pinned pool
	// (data/survey-pool.yaml), which the claims are about; absent with
	// --claims=false.
	Survey       *SurveyTally  `json:"survey,omitempty"`
	ClaimResults []ClaimResult `json:"claim_results,omitempty"`
	// Errata are the acknowledged deviations, where the survey and its
	// CSV disagree for a stated reason, in survey order: the same list as
	// the claims page's errata section.
	Errata      []Erratum   `json:"errata,omitempty"`
	Diagnostics Diagnostics `json:"diagnostics"`

	// screened is true for a list with an exclusion log (Stats's
	// Screened): the text summary of one without counts entries only.
	screened bool
}

// Report waits for the check and reports the verdict of the corpus
// (Verdict) and, withClaims, the claims on it; dir is the corpus
// directory as the user named it, which the summary line repeats.
func (ck *Checked) Report(dir string, withClaims bool) CheckReport {
	v := ck.Verdict(withClaims)
	return CheckReport{
		Corpus: dir, Entries: len(ck.Corpus.Papers), Exclusions: len(ck.Corpus.Excluded),
		screened: ck.Corpus.HasExcluded || len(ck.Vocabulary.FieldsOf(ExcludedFile)) > 0,
		Errors:   v.Errors(), Warnings: v.Warnings(), Diagnostics: v.Diagnostics,
		Claims: v.Tally, ClaimResults: v.Claims, Errata: v.Errata, Survey: v.Survey,
	}
}

// Write prints the report in format: "json" (the report, indented),
// "github" (one workflow annotation per finding, then the summary line)
// or "text" (one finding per line, then the summary line).
func (r CheckReport) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "github":
		for _, d := range r.Diagnostics {
			io.WriteString(w, d.Annotation().String()+"\n")
		}
	default:
		for _, d := range r.Diagnostics {
			io.WriteString(w, d.String()+"\n")
		}
	}
	totals := diag.Count(r.Entries, "entry")
	if r.screened {
		totals += ", " + diag.Count(r.Exclusions, "exclusion")
	}
	fmt.Fprintf(w, "%s: %s: %s, %s", r.Corpus, totals, diag.Count(r.Errors, "error"), diag.Count(r.Warnings, "warning"))
	if s := r.Survey; s != nil {
		fmt.Fprintf(w, "; survey pool %s: %d in the survey", s.Paper, s.Pool)
		if len(s.Missing) > 0 {
			fmt.Fprintf(w, " (%d missing)", len(s.Missing))
		}
		fmt.Fprintf(w, " + %d added since", len(s.Added))
	}
	if r.Claims != nil {
		fmt.Fprintf(w, "; claims: %d held, %d acknowledged, %d failed",
			r.Claims.Held, r.Claims.Acknowledged, r.Claims.Failed)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Annotation is the finding as a GitHub Actions workflow command, titled
// by its field: masrl check's and links' --format github.
func (d Diagnostic) Annotation() diag.Annotation {
	return diag.Annotation{
		Severity: d.Severity, File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col,
		Title: d.Field, Message: d.Detail(),
	}
}

// WriteRefusal says why a command refused a corpus with errors: every
// error finding of ds, one per line, then "prog: the corpus has N
// errors; outcome", outcome saying what was left undone (masrl build and
// serve: the previous site was left as it was; masrl readme: no list
// printed).
func (ds Diagnostics) WriteRefusal(w io.Writer, prog, outcome string) {
	for _, d := range ds {
		if d.Severity == Error {
			fmt.Fprintln(w, d.String())
		}
	}
	fmt.Fprintf(w, "%s: the corpus has %s; %s\n", prog, diag.Count(ds.Count(Error), "error"), outcome)
}
