package corpus

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

const papersHeader = "key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes\n"

// paperRow builds one papers.csv record with the given controlled tags:
// category, is_rl, reward_type, credit_granularity, orchestration_form,
// scenario, is_core, verified.
func paperRow(key string, tags ...string) string {
	return strings.Join([]string{key, "Title " + key, `"Doe, Jane"`, "Lab", "2025", "", "arXiv",
		"https://example.org/" + key, tags[0], tags[1], tags[2], tags[3], tags[4], tags[5], tags[6],
		"one liner", tags[7], "note"}, ",") + "\n"
}

func parseTest(t testing.TB, rows ...string) *Corpus {
	t.Helper()
	c, err := ParsePapers("papers.csv", []byte(papersHeader+strings.Join(rows, "")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testVocab(t testing.TB) *Vocabulary {
	t.Helper()
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestHistogramEmptyCorpus(t *testing.T) {
	v := testVocab(t)
	c := parseTest(t)
	for _, f := range v.FieldsOf(PapersFile) {
		h := c.Histogram(v, f.Name)
		if h.Total != 0 || len(h.Other) != 0 {
			t.Errorf("%s: total %d, other %v on an empty corpus", f.Name, h.Total, h.Other)
		}
		if len(h.Cells) != len(f.Values) {
			t.Errorf("%s: %d cells, want one per vocabulary value (%d)", f.Name, len(h.Cells), len(f.Values))
		}
		for _, cell := range h.Cells {
			if cell.Count != 0 || cell.Keys == nil || len(cell.Keys) != 0 {
				t.Errorf("%s/%s: count %d keys %#v, want 0 and []", f.Name, cell.Value, cell.Count, cell.Keys)
			}
		}
	}
	x := c.CrossTab(v, "reward_type", "credit_granularity")
	if x.Total != 0 || len(x.Outside) != 0 {
		t.Errorf("empty cross-tab: total %d outside %v", x.Total, x.Outside)
	}
	// An empty corpus still marshals with [] rather than null, so the site's
	// stats.json has a fixed shape.
	b, err := json.Marshal(ComputeStats(c, v))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("stats of an empty corpus contain null: %s", b)
	}
	f := c.Funnel(v)
	if f.Candidates != 0 || f.Retained != 0 || f.Excluded != 0 {
		t.Errorf("funnel of an empty corpus: %+v", f)
	}
}

func TestHistogramSingleRow(t *testing.T) {
	v := testVocab(t)
	c := parseTest(t, paperRow("solo", "rl_method", "yes", "shared", "agent", "centralized", "coding", "core", "yes"))
	h := c.Histogram(v, "credit_granularity")
	if h.Total != 1 {
		t.Fatalf("total %d, want 1", h.Total)
	}
	for _, cell := range h.Cells {
		want := 0
		if cell.Value == "agent" {
			want = 1
		}
		if cell.Count != want {
			t.Errorf("%s: %d, want %d", cell.Value, cell.Count, want)
		}
	}
	if got := h.Cell("agent").Keys; !slices.Equal(got, []string{"solo"}) {
		t.Errorf("agent keys %v", got)
	}
	if got := h.ByCount()[0].Value; got != "agent" {
		t.Errorf("ByCount first %q, want agent", got)
	}
	x := c.CrossTab(v, "reward_type", "credit_granularity")
	if x.Cell("shared", "agent").Count != 1 || x.Total != 1 {
		t.Errorf("cross-tab shared/agent %d total %d", x.Cell("shared", "agent").Count, x.Total)
	}
	i, j := slices.Index(x.RowValues, "shared"), slices.Index(x.ColValues, "agent")
	if x.RowTotals[i] != 1 || x.ColTotals[j] != 1 {
		t.Errorf("row total %d col total %d, want 1 and 1", x.RowTotals[i], x.ColTotals[j])
	}
}

// TestHistogramUnusedAndUnknownValues checks that values no row uses stay
// in the histogram with zero, and values outside the vocabulary go to Other
// and out of cross-tab cells.
func TestHistogramUnusedAndUnknownValues(t *testing.T) {
	v := testVocab(t)
	c := parseTest(t,
		paperRow("a", "rl_method", "yes", "shared", "agent", "centralized", "coding", "core", "yes"),
		paperRow("b", "rl_method", "yes", "shared", "Agent", "centralized", "coding", "core", "yes"),
		paperRow("c", "benchmark", "no", "NA", "NA", "NA", "web", "supporting", "partial"),
	)
	h := c.Histogram(v, "credit_granularity")
	if got := h.Cell("token"); got == nil || got.Count != 0 {
		t.Errorf("token cell %+v, want a zero cell", got)
	}
	if len(h.Other) != 1 || h.Other[0].Value != "Agent" || !slices.Equal(h.Other[0].Keys, []string{"b"}) {
		t.Errorf("other %+v, want Agent with key b", h.Other)
	}
	if h.Total != 3 {
		t.Errorf("total %d, want 3 (rows outside the vocabulary count in the total)", h.Total)
	}
	x := c.CrossTab(v, "reward_type", "credit_granularity")
	if x.Total != 2 || !slices.Equal(x.Outside, []string{"b"}) {
		t.Errorf("cross-tab total %d outside %v, want 2 and [b]", x.Total, x.Outside)
	}
	p := x.PresentOnly()
	if !slices.Equal(p.RowValues, []string{"shared", "NA"}) || !slices.Equal(p.ColValues, []string{"agent", "NA"}) {
		t.Errorf("present-only rows %v cols %v", p.RowValues, p.ColValues)
	}
	if got := h.PresentOnly().Cells; len(got) != 2 {
		t.Errorf("present-only cells %+v, want agent and NA", got)
	}
	if c.CrossTab(v, "category", "stage") != nil {
		t.Error("a cross-tab of fields of two files is not nil")
	}
	if c.Histogram(v, "nonesuch") != nil {
		t.Error("histogram of an unknown field is not nil")
	}
	cols := c.CountColumn(PapersFile, "scenario")
	if cols[0].Value != "coding" || cols[0].Count != 2 || cols[1].Value != "web" {
		t.Errorf("CountColumn %+v", cols)
	}
}

// TestStreamStatsMatchesComputeStats requires the streamed report to equal
// the one computed from a loaded corpus, byte for byte in JSON.
func TestStreamStatsMatchesComputeStats(t *testing.T) {
	dir := corpustest.Dir(t)
	v := mustVocabulary(t)
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(ComputeStats(c, v))
	if err != nil {
		t.Fatal(err)
	}
	s, err := StreamStats(dir, v, StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("streamed stats differ:\n%s\nwant:\n%s", got, want)
	}
	if _, err := StreamStats(dir, v, StatsOptions{Extra: [][2]string{{"stage", "category"}}}); err == nil {
		t.Fatal("a cross-tab across files was accepted")
	}
	// Counts alone: the same numbers, no keys.
	counts, err := StreamStats(dir, v, StatsOptions{CountsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	full := ComputeStats(c, v)
	for i, h := range counts.Histograms {
		for j, cell := range h.Cells {
			if cell.Count != full.Histograms[i].Cells[j].Count || len(cell.Keys) != 0 {
				t.Fatalf("%s %s: count %d keys %d, want count %d and no keys", h.Field, cell.Value, cell.Count, len(cell.Keys), full.Histograms[i].Cells[j].Count)
			}
		}
	}
	for i, x := range counts.CrossTabs {
		if x.Total != full.CrossTabs[i].Total {
			t.Fatalf("%s×%s: total %d, want %d", x.Rows, x.Cols, x.Total, full.CrossTabs[i].Total)
		}
	}
}
