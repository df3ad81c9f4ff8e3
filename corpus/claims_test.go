package corpus

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
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
	cl := loadFixtureClaims(t, v, "claims.yaml")
	mb, err := os.ReadFile(filepath.Join("testdata", "claims", cl.MentionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if cl.Mentions, err = ParseMentions("mentions.yaml", mb); err != nil {
		t.Fatal(err)
	}
	results := VerifyClaims(c, v, cl)
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
		{"holds/columns", Holds, "8", nil},
		{"holds/oneof", Holds, "reward_type in orchestration or hybrid, orchestration_form in swarm", nil},
		{"acknowledged/oneof", Acknowledged, "reward_type=shared, orchestration_form=centralized", []string{"alpha"}},
		{"fails/share", Fails, "2 of 3 (67%)", nil},
		{"holds/bucket", Holds, "2", nil},
		{"fails/order", Fails, "X: gamma (1994) after beta (2025)", []string{"gamma"}},
		{"holds/contains", Holds, "2", []string{"alpha", "beta"}},
		{"holds/venue", Holds, "beta", nil},
		{"fails/among", Fails, "1", []string{"beta"}},
		{"holds/meta", Holds, "year=1994, venue=ICML, affiliation=Lab", nil},
		{"fails/meta", Fails, "year=2025, venue=arXiv", []string{"alpha"}},
		{"fails/excluded", Fails, "E001: no such record", nil},
		{"acknowledged/lost", Acknowledged, "is_rl=partial, credit_granularity=orchestrator, is_core=case", []string{"beta"}},
		{"fails/references", Fails, "3 references for 3 retained rows: reference [3] (mentions.yaml:5) cites delta, which is no retained row; retained row gamma has no reference", []string{"delta", "gamma"}},
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
	if got := len(results); got != 4+2+4+1+2+9+5 {
		t.Errorf("%d results, want 27 (the table expands to four cells)", got)
	}

	ds := ClaimDiagnostics(results)
	if ds.Count(Error) != 11 || ds.Count(Warning) != 3 {
		t.Errorf("%d errors %d warnings, want 11 (9 fails, 2 stale) and 3", ds.Count(Error), ds.Count(Warning))
	}
	errata := Errata(results)
	if len(errata) != 3 || errata[2].ID != "acknowledged/lost" || errata[2].Paper != "is_rl=?" || errata[2].CSV != "is_rl=partial" || errata[0].ID != "acknowledged/oneof" || errata[0].Line != 7 || errata[0].Printed != "R2 alpha" ||
		errata[0].Paper != "reward_type in individual or hybrid" || errata[0].CSV != "reward_type=shared" ||
		errata[1].ID != "acknowledged/tags" || errata[1].Printed != "Y ag supp" || errata[1].CSV != "is_core=core" {
		t.Errorf("errata %+v, want acknowledged/oneof (line 7, its differing field) then acknowledged/tags (no line, its printed row)", errata)
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
	if got := ClaimsOf(results, "gamma"); len(got) != 8 {
		t.Errorf("gamma takes part in %d claims, want 8 (holds/count, fails/count, fails/table individual/agent, acknowledged/tags, holds/bucket, fails/order, holds/meta, fails/references)", len(got))
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
		`bad.yaml:7: error: claim e: "sharde" is not a value of reward_type`,
		`bad.yaml:8: error: claim f: from and to must be months YYYY-MM`,
		`bad.yaml:9: error: claim g: contains counts a free-text column and takes no value`,
		`bad.yaml:10: error: claim h: legend "nope" is not a legend of the file ()`,
		`bad.yaml:11: error: claim i: shown: "yaer" is not a column of papers.csv`,
		`bad.yaml:12: error: claim j: line must be a line of survey.txt, not -4`,
		`bad.yaml:13: error: claim k: legend "" is not a legend of the file ()`,
		`bad.yaml:14: error: claim l: "yaer" is not a field a meta claim checks (year, venue, affiliation, month)`,
		`bad.yaml:15: error: claim m: month must be YYYY-MM, not "Oct 2025"`,
		`bad.yaml:16: error: claim n: a references claim needs the claims file to name its mentions file`,
		`bad.yaml:17: error: claim o: an excluded claim needs expect mapping each record_id to the name the survey prints`,
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

// TestParseClaimsYAMLMessages requires a claims file's YAML problems to be
// told at their line in the file's terms: no bare EOF for an empty file,
// no Go type names, unknown keys with the nearest known one.
func TestParseClaimsYAMLMessages(t *testing.T) {
	v := testVocab(t)
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", `claims.yaml:1: error: the file is empty or not a mapping: a claims file holds claims: [...]`},
		{"comments only", "# nothing yet\n", `claims.yaml:1: error: the file is empty or not a mapping`},
		{"unknown top key", "claimz: []\n", `claims.yaml:1:1: error: the file: unknown key "claimz"; allowed: pool, mentions, legend, claims; did you mean "claims"?`},
		{"unknown claim key", "claims:\n  - id: a\n    kind: total\n    source: x\n    of: retained\n    expekt: 3\n", `claims.yaml:6:5: error: claim a: unknown key "expekt"; allowed: id, kind,`},
		{"unknown legend key", "legend:\n  t:\n    fields: [reward_type]\n    valeus: {}\nclaims: []\n", `claims.yaml:4:5: error: legend t: unknown key "valeus"; allowed: fields, values; did you mean "values"?`},
		{"key of another kind", "claims:\n  - id: a\n    kind: count\n    source: x\n    field: reward_type\n    value: shared\n    rows: category\n    expect: 1\n", `claims.yaml:7:5: error: claim a: a count claim takes no rows; it takes field, value, contains, legend, buckets, among, expect (and id, kind,`},
		{"total with a field", "claims:\n  - id: a\n    kind: total\n    source: x\n    of: retained\n    field: year\n    expect: 1\n", `claims.yaml:6:5: error: claim a: a total claim takes no field; it takes of, expect (and id, kind,`},
		{"wrong type", "claims:\n  - id: a\n    kind: total\n    source: x\n    line: abc\n", `claims.yaml:5: error: "abc" is text; want a number`},
		{"wrong legend type", "legend:\n  t:\n    fields: 3\nclaims: []\n", `claims.yaml:3: error: "3" is a number; want a list`},
		{"syntax", "claims:\n  - id: [\n", `claims.yaml:2: error: did not find expected node content`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseClaims("claims.yaml", []byte(tc.src), v)
			var ce *CheckError
			if !errors.As(err, &ce) || !strings.HasPrefix(ce.Diagnostics[0].String(), tc.want) {
				t.Fatalf("error %v, want a *CheckError starting %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "corpus.") || strings.Contains(err.Error(), "!!") {
				t.Errorf("Go or YAML type names in %q", err)
			}
		})
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

// loadRealWithClaims loads the real corpus (corpustest.Dir), the default
// vocabulary and the embedded claims.
func loadRealWithClaims(t testing.TB) (*Corpus, *Vocabulary, *Claims) {
	t.Helper()
	c, err := Load(corpustest.Dir(t))
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
		e := c.Papers[i]
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
				switch k := cl.Claims[i].Check.(type) {
				case *CountClaim:
					if k.Field == f {
						counted++
					}
				case *SetClaim:
					if k.Field == f {
						counted++
					}
				case *BucketClaim:
					if k.Field == f {
						counted++
					}
				case *CellClaim:
					if k.Rows == f || k.Cols == f {
						counted++
					}
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
	extra := *c.Papers[0]
	extra.Key = "new-entry"
	c.Papers = append(c.Papers, &extra)
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

func setTag(e *Entry, field, value string) { e.SetValue(field, value) }

// TestClaimsMoveExactly changes the real corpus one way at a time and
// expects exactly the claims that the change concerns to stop holding,
// each with its status: the new kinds and scopes move with the CSV, and
// an acknowledgement goes stale when the CSV comes to agree.
func TestClaimsMoveExactly(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(t *testing.T, c *Corpus)
		want   map[string]ClaimStatus
	}{
		{"kimi-k2-5 core", func(t *testing.T, c *Corpus) { setTag(row(t, c, "kimi-k2-5"), "is_core", "core") },
			map[string]ClaimStatus{"table16/core-cards": Stale, "table16/kimi-k2-5": Fails, "table16/case-rows": Fails}},
		{"rema2025 notes lose the refresh", func(t *testing.T, c *Corpus) { row(t, c, "rema2025").Notes = "OpenReview NeurIPS 2025 poster" },
			map[string]ClaimStatus{"fig4/coverage-audit": Fails, "s1.1/coverage-refresh": Fails}},
		{"agents-under-siege2025 at ACL 2024", func(t *testing.T, c *Corpus) { row(t, c, "agents-under-siege2025").Venue = "ACL 2024" },
			map[string]ClaimStatus{"s10.3/acl-2025-attacks": Fails, "s10.3/acl-2025-attack-papers": Fails}},
		{"hera hybrid", func(t *testing.T, c *Corpus) { setTag(row(t, c, "hera"), "reward_type", "hybrid") },
			map[string]ClaimStatus{"table10/R8/hera": Stale, "table16/hera": Fails,
				"table1/reward_type/hybrid": Fails, "table1/reward_type/orchestration": Fails,
				"table2/hybrid/orchestrator": Fails, "table2/orchestration/orchestrator": Fails}},
		{"malt 2025", func(t *testing.T, c *Corpus) {
			e := row(t, c, "malt")
			e.Year, e.YearText = 2025, "2025"
		},
			map[string]ClaimStatus{"table16/order": Stale, "table16/malt/year-venue": Fails}},
		{"survey-mas an RL method", func(t *testing.T, c *Corpus) { setTag(row(t, c, "survey-mas"), "category", "rl_method") },
			map[string]ClaimStatus{"table16/bucket/B": Fails, "table1/category/rl_method": Fails}},
		{"magrpo undated 2023", func(t *testing.T, c *Corpus) {
			e := row(t, c, "magrpo")
			e.ArxivID, e.Year, e.YearText = "", 2023, "2023"
		}, map[string]ClaimStatus{"fig2/window": Stale, "table16/magrpo/year-venue": Fails, "cardA/magrpo/header": Fails}},
		{"criticlean2025 2026", func(t *testing.T, c *Corpus) {
			e := row(t, c, "criticlean2025")
			e.Year, e.YearText = 2026, "2026"
		}, map[string]ClaimStatus{"table16/criticlean2025/year-venue": Fails}},
		{"tmcht2025 at EMNLP", func(t *testing.T, c *Corpus) { row(t, c, "tmcht2025").Venue = "EMNLP 2025" },
			map[string]ClaimStatus{"table16/tmcht2025/year-venue": Fails, "s10.3/acl-2025-attacks": Fails, "s10.3/acl-2025-attack-papers": Fails}},
		{"matpo from NTU to Microsoft", func(t *testing.T, c *Corpus) { row(t, c, "matpo").Affiliation = "Microsoft Research" },
			map[string]ClaimStatus{"cardA/matpo/header": Fails}},
		{"difference-rewards2001 partial", func(t *testing.T, c *Corpus) { setTag(row(t, c, "difference-rewards2001"), "is_rl", "partial") },
			map[string]ClaimStatus{"table16/difference-rewards2001": Stale, "table1/is_rl/yes": Fails, "table1/is_rl/partial": Fails}},
		{"mas-zero2025 process", func(t *testing.T, c *Corpus) { setTag(row(t, c, "mas-zero2025"), "reward_type", "process") },
			map[string]ClaimStatus{"s6.4/interaction-reward/mas-zero2025": Stale, "table16/mas-zero2025": Fails, "table1/reward_type/NA": Fails,
				"table2/NA/orchestrator": Fails, "table2/process/orchestrator": Fails}},
		{"sharp at tool level", func(t *testing.T, c *Corpus) { setTag(row(t, c, "sharp"), "credit_granularity", "tool") },
			map[string]ClaimStatus{"fig12/tool": Stale, "table11/sharp": Stale, "cardA/sharp": Stale, "table16/sharp": Fails,
				"fig12/agent": Fails, "s7.2/one-level/agent": Fails, "s7.5/dense/agent": Fails,
				"table1/credit_granularity/agent": Fails, "table2/hybrid/agent": Fails, "table22/hierarchical/agent": Fails}},
		{"E003 no longer AutoGen", func(t *testing.T, c *Corpus) {
			for i := range c.Excluded {
				if c.Excluded[i].RecordID == "E003" {
					c.Excluded[i].ScreeningLabel = "A multi-agent conversation framework"
				}
			}
		}, map[string]ClaimStatus{"s4.2/excluded-frameworks": Fails, "table19/autogen-camel-metagpt": Fails}},
		{"notes column renamed", func(t *testing.T, c *Corpus) { c.papers.header[len(c.papers.header)-1] = "note" },
			map[string]ClaimStatus{"schema/columns": Fails}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, v, cl := loadRealWithClaims(t)
			tt.mutate(t, c)
			got := map[string]ClaimStatus{}
			for _, r := range VerifyClaims(c, v, cl) {
				if !r.OK() {
					got[r.ID] = r.Status
				}
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("claims that stop holding: %v, want %v", got, tt.want)
			}
		})
	}
}

// TestClaimsCatchRemovedRefreshRow: the survey's "+8 retained entries"
// are the rows the coverage refresh added; removing one fails it.
func TestClaimsCatchRemovedRefreshRow(t *testing.T) {
	c, v, cl := loadRealWithClaims(t)
	i := slices.IndexFunc(c.Papers, func(e *Entry) bool { return e.Key == "owl2025" })
	if i < 0 {
		t.Fatal("no row owl2025")
	}
	c.Papers = slices.Delete(c.Papers, i, i+1)
	for _, r := range VerifyClaims(c, v, cl) {
		if r.ID == "fig4/coverage-audit" {
			if r.Status != Fails || r.Actual != "7" || slices.Contains(r.Keys, "owl2025") || len(r.Keys) != 7 {
				t.Errorf("+8 claim after removing owl2025: %s %q %v, want fails with the 7 others", r.Status, r.Actual, r.Keys)
			}
			return
		}
	}
	t.Fatal("no fig4/coverage-audit claim")
}

func row(t *testing.T, c *Corpus, key string) *Entry {
	t.Helper()
	for i := range c.Papers {
		if c.Papers[i].Key == key {
			return c.Papers[i]
		}
	}
	t.Fatalf("no row %s", key)
	return nil
}

// TestParseMentionsErrors: every rule of the mentions file fails at its
// line, all of them reported.
func TestParseMentionsErrors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "claims", "badmentions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseMentions("badmentions.yaml", b)
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *CheckError", err)
	}
	want := []string{
		`badmentions.yaml:3: error: section "1 Earlier" (line 10) does not follow "2 Later" (line 20): the sections are in the order of the paper`,
		`badmentions.yaml:6: error: reference 3 follows [1]: the references are numbered in order from 1, so this one is [2]`,
		`badmentions.yaml:7: error: reference [3] cites alpha, which reference [1] cites already`,
		`badmentions.yaml:8: error: reference [4] needs a key, its line of survey.txt and its printed words`,
		`badmentions.yaml:10: error: mentions of alpha are not in the order of the paper (by line)`,
		`badmentions.yaml:13: error: mentions of zeta, which no reference cites: give it a reference first`,
		`badmentions.yaml:15: error: mentions of gamma, which no reference cites: give it a reference first`,
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

func TestSectionAt(t *testing.T) {
	m := &Mentions{Sections: []Section{{Line: 10, Title: "1 A"}, {Line: 20, Title: "2 B"}}}
	for _, tt := range []struct {
		line int
		want string
	}{{5, ""}, {10, "1 A"}, {19, "1 A"}, {20, "2 B"}, {900, "2 B"}} {
		got := ""
		if s := m.SectionAt(tt.line); s != nil {
			got = s.Title
		}
		if got != tt.want {
			t.Errorf("SectionAt(%d) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
