package corpus

import (
	"testing"

	"github.com/masrl/masrl/data"
)

// TestVerdict: the verdict with claims is the check's findings plus the
// claims' findings, and the claims are verified once per Checked, so that
// check, the build and serve read the same results.
func TestVerdict(t *testing.T) {
	ck, err := OpenWith("testdata/base", nil, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	without := ck.Verdict(false)
	if without.Claims != nil || without.Tally != nil || len(without.Diagnostics) != len(ck.Diagnostics()) {
		t.Errorf("Verdict(false): %d claims, tally %v, %d findings; want none, nil, the check's %d", len(without.Claims), without.Tally, len(without.Diagnostics), len(ck.Diagnostics()))
	}
	with := ck.Verdict(true)
	results := ck.ClaimResults()
	if len(results) == 0 || &results[0] != &with.Claims[0] {
		t.Fatalf("the verdict's claim results are not the ones ClaimResults verified once")
	}
	claimErrs := ClaimDiagnostics(results).Count(Error)
	if claimErrs == 0 {
		t.Fatal("the survey's claims all hold on testdata/base; the test needs a failing one")
	}
	if got, want := with.Errors(), without.Errors()+claimErrs; got != want {
		t.Errorf("Verdict(true).Errors() = %d, want %d: %d (check) + %d (claims)", got, want, without.Errors(), claimErrs)
	}
	if with.Err() == nil || with.Tally.Failed == 0 {
		t.Errorf("Verdict(true): Err %v, tally %+v; want a *CheckError and failed claims", with.Err(), with.Tally)
	}
}
