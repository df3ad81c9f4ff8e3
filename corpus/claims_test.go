package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadFixtureClaims(t *testing.T, v *Vocabulary, name string) *Claims {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "claims", name))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := ParseClaims(name, b, v)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// TestVerifyClaimsOutcomes runs one claim per outcome over a three-row
// fixture corpus.
func TestVerifyClaimsOutcomes(t *testing.T) {
	v := testVocab(t)
	c, err := LoadPapersFile(filepath.Join("testdata", "claims", "papers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	results := VerifyClaims(c, v, loadFixtureClaims(t, v, "claims.yaml"))
	byID := map[string]ClaimResult{}
	for _, r := range results {
		byID[r.ID] = r
	}
	tests := []struct {
		id          string
		status      ClaimStatus
		actual      string
		responsible []string
	}{
		{"holds/total", Holds, "3", nil},
		{"holds/count", Holds, "2", []string{"alpha", "gamma"}},
		{"holds/set", Holds, "beta", nil},
		{"holds/tags", Holds, "is_rl=partial, credit_granularity=orchestrator, is_core=case", nil},
		{"fails/count", Fails, "2", []string{"alpha", "gamma"}},
		{"fails/set", Fails, "beta", []string{"alpha"}},
		{"fails/table/individual/agent", Fails, "1", []string{"gamma"}},
		{"fails/table/shared/agent", Holds, "1", []string{"alpha"}},
		{"acknowledged/tags", Acknowledged, "is_rl=yes, credit_granularity=agent, is_core=core", []string{"gamma"}},
		{"stale/agrees", Stale, "1", []string{"alpha"}},
		{"stale/moved", Stale, "0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			r, ok := byID[tt.id]
			if !ok {
				t.Fatalf("no result for %s", tt.id)
			}
			if r.Status != tt.status || r.Actual != tt.actual || !slices.Equal(r.Responsible, tt.responsible) {
				t.Errorf("got %s actual %q responsible %v, want %s %q %v", r.Status, r.Actual, r.Responsible, tt.status, tt.actual, tt.responsible)
			}
			if r.Pos.File != "claims.yaml" || r.Pos.Line == 0 {
				t.Errorf("position %v, want a line of claims.yaml", r.Pos)
			}
		})
	}
	if got := len(results); got != 4+2+4+1+2 {
		t.Errorf("%d results, want 13 (the table expands to four cells)", got)
	}

	ds := ClaimDiagnostics(results)
	if ds.Count(Error) != 5 || ds.Count(Warning) != 1 {
		t.Errorf("%d errors %d warnings, want 5 (3 fails, 2 stale) and 1", ds.Count(Error), ds.Count(Warning))
	}
	for _, d := range ds {
		if d.Field == "fails/set" {
			for _, want := range []string{"orchestrator rows", "Table 21", "alpha, beta", "entries: alpha"} {
				if !strings.Contains(d.String(), want) {
					t.Errorf("finding %q lacks %q", d, want)
				}
			}
		}
		if d.Field == "acknowledged/tags" && !strings.Contains(d.Message, "not regenerated") {
			t.Errorf("warning %q lacks the reason", d)
		}
	}
	if got := ClaimsOf(results, "gamma"); len(got) != 4 {
		t.Errorf("gamma takes part in %d claims, want 4 (holds/count, fails/count, fails/table individual/agent, acknowledged/tags)", len(got))
	}
}

func TestParseClaimsErrors(t *testing.T) {
	v := testVocab(t)
	b, err := os.ReadFile(filepath.Join("testdata", "claims", "bad.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseClaims("bad.yaml", b, v)
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *CheckError", err)
	}
	want := []string{
		`bad.yaml:3: error: claim b: unknown kind "nonesuch"`,
		`bad.yaml:4: error: claim "a" repeats the id of line 2`,
		`bad.yaml:5: error: claim c: abbreviated row needs a known legend`,
		`bad.yaml:6: error: claim d: "agnet" is not a value of credit_granularity`,
	}
	if len(ce.Diagnostics) != len(want) {
		t.Fatalf("%d findings, want %d: %v", len(ce.Diagnostics), len(want), ce.Diagnostics)
	}
	for i, w := range want {
		if !strings.HasPrefix(ce.Diagnostics[i].String(), w) {
			t.Errorf("finding %d = %q, want prefix %q", i, ce.Diagnostics[i], w)
		}
	}
}

// TestClaimsHoldOnRealCorpus proves that the embedded claims file agrees
// with the real corpus: everything holds or is acknowledged.
func TestClaimsHoldOnRealCorpus(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	for _, r := range VerifyClaims(c, v, cl) {
		if !r.OK() {
			t.Errorf("%s: %s (%s): paper %s, CSV %s %s", r.Pos, r.ID, r.Status, r.Expected, r.Actual, r.Reason)
		}
	}
}

// loadRealWithClaims loads the real corpus (see realCorpus), the default
// vocabulary and the embedded claims.
func loadRealWithClaims(t testing.TB) (*Corpus, *Vocabulary, *Claims) {
	t.Helper()
	c, err := Load(realCorpus(t))
	if err != nil {
		t.Fatal(err)
	}
	v := testVocab(t)
	cl, err := LoadClaims(v)
	if err != nil {
		t.Fatal(err)
	}
	return c, v, cl
}

// TestClaimsCatchEveryTagChange changes each controlled tag of every row of
// the real corpus, one at a time, and expects at least one claim to fail
// naming that row: each value moves to the next one of its vocabulary.
// Table 16 pins six tags of every row; Table 1 pins category for its four
// printed values (a swap between survey and framework, which the paper
// never counts, would pass); Appendix C.2 pins verified.
func TestClaimsCatchEveryTagChange(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	fields := []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form", "scenario", "is_core", "verified"}
	for i := range c.Papers {
		e := &c.Papers[i]
		for _, f := range fields {
			old := e.Value(f)
			vals := v.Field(f).Allowed()
			repl := vals[(slices.Index(vals, old)+1)%len(vals)]
			setTag(e, f, repl)
			named, counted := 0, 0
			for i, r := range VerifyClaims(c, v, cl) {
				if r.OK() {
					continue
				}
				if slices.Contains(r.Responsible, e.Key) {
					named++
				}
				if k := cl.Claims[i]; k.Field == f || k.Rows == f || k.Cols == f {
					counted++
				}
			}
			// A row that leaves a printed count is not in the cell any more,
			// so that claim names the rows in it now; masrl diff names the
			// row that left. Every change must still fail some claim on the
			// field.
			if named == 0 && counted == 0 {
				t.Errorf("%s: %s %s → %s: no claim fails", e.Key, f, old, repl)
			}
			if named == 0 && (f != "category" && f != "verified") {
				t.Errorf("%s: %s %s → %s: no failing claim names the row", e.Key, f, old, repl)
			}
			setTag(e, f, old)
		}
	}
}

// TestClaimsCatchAddedAndRemovedRows: a row added since the survey moves
// no claim (the claims are about the survey's pool), a survey row removed
// fails the totals and its own Table 16 row.
func TestClaimsCatchAddedAndRemovedRows(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	before := VerifyClaims(c, v, cl)
	extra := c.Papers[0]
	extra.Key = "new-entry"
	c.Papers = append(c.Papers, extra)
	after := VerifyClaims(c, v, cl)
	for i := range after {
		if !after[i].OK() || after[i].Actual != before[i].Actual || !slices.Equal(after[i].Keys, before[i].Keys) {
			t.Errorf("adding new-entry moves %s: %s %q, was %q", after[i].ID, after[i].Status, after[i].Actual, before[i].Actual)
		}
	}
	c.Papers = c.Papers[1 : len(c.Papers)-1] // drop the first row and the extra
	res := VerifyClaims(c, v, cl)
	if got := failingIDs(res, "magrpo"); !slices.Contains(got, "table16/magrpo") || !slices.Contains(got, "total/retained") {
		t.Errorf("removing magrpo fails %v, want total/retained and table16/magrpo", got)
	}
}

func failingIDs(rs []ClaimResult, key string) []string {
	var out []string
	for _, r := range rs {
		if !r.OK() && (r.Kind == KindTotal || slices.Contains(r.Responsible, key)) {
			out = append(out, r.ID)
		}
	}
	return out
}

func setTag(e *Entry, field, value string) {
	switch field {
	case "is_rl":
		e.IsRL = IsRL(value)
	case "reward_type":
		e.RewardType = RewardType(value)
	case "credit_granularity":
		e.CreditGranularity = CreditGranularity(value)
	case "orchestration_form":
		e.OrchestrationForm = OrchestrationForm(value)
	case "scenario":
		e.Scenario = Scenario(value)
	case "is_core":
		e.IsCore = Core(value)
	case "category":
		e.Category = Category(value)
	case "verified":
		e.Verified = Verified(value)
	}
}
