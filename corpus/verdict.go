package corpus

import (
	"slices"
	"sync"
)

// Verdict is the check's judgement of a corpus: every finding of the
// check and, when the claims are counted, of the claims. It is the one
// definition of what fails: masrl check's exit code, the build's refusal
// (site.Build), masrl serve's and masrl add's all read a Verdict, so the
// commands cannot judge one corpus differently.
type Verdict struct {
	// Diagnostics are the check's findings and, with claims, the claims'
	// findings (ClaimDiagnostics), sorted.
	Diagnostics Diagnostics
	// Claims are the claims' results in file order; nil when the claims
	// are not counted or the list has none.
	Claims []ClaimResult
	// Tally counts Claims by outcome and Survey places the corpus against
	// the claims' pool; nil when not counted (Survey also when the claims
	// have no pool).
	Tally  *ClaimTally
	Survey *SurveyTally
	// Errata are the acknowledged deviations among Claims, in survey
	// order (Errata).
	Errata []Erratum
}

// ClaimTally counts claims by outcome; a stale acknowledgement counts as
// failed, because it fails the check.
type ClaimTally struct {
	Held         int `json:"held"`
	Acknowledged int `json:"acknowledged"`
	Failed       int `json:"failed"`
}

// SurveyTally places the corpus against the survey's pool: the claims are
// checked on the pool's entries only, so rows added since move none of them.
type SurveyTally struct {
	Paper   string   `json:"paper"`
	Pool    int      `json:"pool"`              // retained entries the paper describes
	Missing []string `json:"missing,omitempty"` // pool keys papers.csv no longer has
	Added   []string `json:"added"`             // keys added since the survey
}

// Errors is the number of findings that fail the verdict.
func (v *Verdict) Errors() int { return v.Diagnostics.Count(Error) }

// Warnings is the number of findings that do not.
func (v *Verdict) Warnings() int { return v.Diagnostics.Count(Warning) }

// Err returns a *CheckError with every finding when the verdict fails,
// else nil.
func (v *Verdict) Err() error { return v.Diagnostics.Err() }

// Verdict waits for the check and judges the corpus; withClaims counts
// the list's claims (ck.Claims) too, as masrl check does unless given
// --claims=false. The claims are verified once per Checked, however many
// verdicts and pages ask for them.
func (ck *Checked) Verdict(withClaims bool) *Verdict {
	ds := ck.Diagnostics()
	if !withClaims || ck.Data == nil || ck.Claims == nil {
		return &Verdict{Diagnostics: ds}
	}
	results := ck.ClaimResults()
	ds = append(slices.Clone(ds), ClaimDiagnostics(results)...)
	ds.Sort()
	n := ClaimCounts(results)
	v := &Verdict{
		Diagnostics: ds, Claims: results, Errata: Errata(results),
		Tally: &ClaimTally{Held: n[Holds], Acknowledged: n[Acknowledged], Failed: n[Fails] + n[Stale]},
	}
	if p := ck.Claims.Pool; p != nil {
		v.Survey = &SurveyTally{Paper: p.Paper, Pool: len(p.Retained), Missing: p.Missing(ck.Corpus), Added: p.Added(ck.Corpus)}
	}
	return v
}

// ClaimResults verifies the list's claims on the corpus (VerifyClaims),
// once: the verdict and the site's claims page read the same results.
// Nil when the list has no claims.
func (ck *Checked) ClaimResults() []ClaimResult {
	if ck.Data == nil || ck.Claims == nil {
		return nil
	}
	ck.claimsOnce.Do(func() {
		ck.claimResults = VerifyClaims(ck.Corpus, ck.Vocabulary, ck.Claims)
	})
	return ck.claimResults
}

// claimsMemo is the part of Checked that ClaimResults fills.
type claimsMemo struct {
	claimsOnce   sync.Once
	claimResults []ClaimResult
}
