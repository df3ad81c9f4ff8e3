package site

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site/search"

	"github.com/masrl/masrl/internal/corpustest"
)

// TestClaimForEntry: an entry page quotes its own row of an order claim
// and leaves other claims, and rows the claim does not name, as they are.
func TestClaimForEntry(t *testing.T) {
	cv := &ClaimView{ClaimResult: corpus.ClaimResult{Kind: corpus.KindOrder, Status: corpus.Acknowledged,
		Actual: "A: malt (2024) after marsrl (2025); C: openai-codex (2025) after kimi-k2-6 (2026)"}}
	cv.ActualShort = cv.Actual
	if got, want := cv.forEntry("openai-codex").ActualShort, "C: openai-codex (2025) after kimi-k2-6 (2026); … (2 in all)"; got != want {
		t.Errorf("openai-codex sees %q, want %q", got, want)
	}
	if cv.forEntry("kimi-k2-6") != cv || cv.forEntry("marsrl") != cv {
		t.Error("a row named only as the one before gets its own copy; it should see the claim whole")
	}
	if cv.ActualShort != cv.Actual {
		t.Error("forEntry changed the claims page's view")
	}
	set := &ClaimView{ClaimResult: corpus.ClaimResult{Kind: corpus.KindSet, Actual: "a, b"}}
	if set.forEntry("a") != set {
		t.Error("a set claim is copied per entry")
	}
}

// TestEntrySurvey: on the survey's own list each entry page shows what
// the survey says of it (its reference number and each place that names
// it, with its line, linked to the claims page), and so do papers.json
// and the search index; the claims page groups its claims by the part of
// the survey that prints them, in the paper's order.
func TestEntrySurvey(t *testing.T) {
	dir := corpustest.Dir(t)
	files := mustLoad(t, openCorpus(t, dir, nil), Options{})
	matpo := page(t, files, "papers/matpo/index.html")
	_, sec, ok := strings.Cut(matpo, `<h2 id="survey-h">In the survey</h2>`)
	if !ok {
		t.Fatal("papers/matpo has no In the survey section")
	}
	sec, _, _ = strings.Cut(sec, "</section>")
	for _, want := range []string{
		"cites this paper as [43]",
		`<a href="../../claims/#claim-table10-R3-matpo">Table 10, R3</a>, line 434:`,
		`<a href="../../claims/#claim-table10-R5-matpo">Table 10, R5</a>, line 436:`,
		`<a href="../../claims/#claim-table11-matpo">Table 11</a>, line 520:`,
		`Figure 12</a>, line 504: <q>MATPO</q>`,
		`<a href="../../claims/#claim-cardA-matpo-header">Appendix A.2 card</a>, line 1061: <q>MATPO [43]</q>`,
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("papers/matpo's In the survey lacks %q:\n%s", want, sec)
		}
	}
	c, _ := load(t, dir)
	for _, e := range c.Papers {
		p := page(t, files, "papers/"+e.Key+"/index.html")
		if _, sec, ok := strings.Cut(p, `<h2 id="survey-h">In the survey</h2>`); !ok || !strings.Contains(sec, "cites this paper as [") || !strings.Contains(sec, ", line ") {
			t.Errorf("papers/%s: no reference or no mention In the survey", e.Key)
		}
	}

	var papers []struct {
		Key    string       `json:"key"`
		Survey *EntrySurvey `json:"survey"`
	}
	if err := json.Unmarshal([]byte(page(t, files, "papers.json")), &papers); err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		if p.Key == "matpo" && (p.Survey == nil || p.Survey.Reference != 43 || len(p.Survey.Mentions) < 5) {
			t.Errorf("papers.json: matpo's survey is %+v, want reference 43 and its mentions", p.Survey)
		}
	}
	var ix search.Index
	if err := json.Unmarshal([]byte(page(t, files, SearchIndexFile)), &ix); err != nil {
		t.Fatal(err)
	}
	if got := ix.Match("Table 10, R3", nil); !sameKeys(got, []string{"depart2026", "lamo2026", "malt", "matpo"}) {
		t.Errorf(`search "Table 10, R3" finds %v, want Table 10's R3 row: malt, matpo, lamo2026, depart2026`, got)
	}

	cp := page(t, files, "claims/index.html")
	_, all, _ := strings.Cut(cp, `<h2 id="all-claims">`)
	prev := 0
	for _, part := range strings.Split(all, `<h3 id="part-`)[1:] {
		_, rest, _ := strings.Cut(part, "(from survey.txt line ")
		line, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ')')])
		if line <= prev && line != 0 {
			t.Errorf("claims page: part at line %d after part at line %d", line, prev)
		}
		prev = line
	}
	if prev < 1100 || !strings.Contains(all, `<h3 id="part-7-1-The-credit--and-signal-bearing-unit-hierarchy">`) {
		t.Error("claims page: the parts do not run through the paper to Appendix B")
	}
}

func sameKeys(a, b []string) bool {
	a = slices.Clone(a)
	slices.Sort(a)
	return slices.Equal(a, b)
}
