package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// agentsDir is the example list of a multi-valued, nested field with
// link columns and months, in the shape of a popular awesome list.
var agentsDir = filepath.Join("..", "testdata", "lists", "agents", "corpus")

func loadAgents(t *testing.T, dir string) (*Corpus, *Vocabulary) {
	t.Helper()
	v, err := ListVocabulary(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, v
}

// TestMultipleValuesCount checks that an entry with two topics counts
// under both, once each, in the histogram, the cross-tab and the stats.
func TestMultipleValuesCount(t *testing.T) {
	c, v := loadAgents(t, agentsDir)
	if ds := Check(c, v, CheckOptions{Today: openToday}); len(ds) > 0 {
		t.Fatalf("the agents list does not check clean:\n%v", ds)
	}
	h := c.Histogram(v, "topic")
	for _, val := range []string{"reflection", "memory"} {
		if cell := h.Cell(val); cell == nil || !slices.Contains(cell.Keys, "reflexion") {
			t.Errorf("topic %s: keys %v, want reflexion among them", val, cell)
		}
	}
	if !h.Multiple || h.Total != len(c.Papers) {
		t.Errorf("histogram: Multiple %v, Total %d; want true, %d (rows, not values)", h.Multiple, h.Total, len(c.Papers))
	}
	x := c.CrossTab(v, "topic", "kind")
	for _, val := range []string{"reflection", "memory"} {
		if cell := x.Cell(val, "method"); cell == nil || !slices.Contains(cell.Keys, "reflexion") {
			t.Errorf("cross-tab %s × method: %v, want reflexion", val, cell)
		}
	}
	if x.Total != len(c.Papers) {
		t.Errorf("cross-tab total %d, want %d", x.Total, len(c.Papers))
	}
	s := ComputeStats(c, v)
	st, err := StreamStats(agentsDir, v, StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Histograms {
		a, b := s.Histograms[i], st.Histograms[i]
		for j := range a.Cells {
			if a.Cells[j].Count != b.Cells[j].Count {
				t.Errorf("%s=%s: ComputeStats %d, StreamStats %d", a.Field, a.Cells[j].Value, a.Cells[j].Count, b.Cells[j].Count)
			}
		}
	}
	if got, want := st.CrossTabs[0].Cell("memory", "method").Count, x.Cell("memory", "method").Count; got != want {
		t.Errorf("streamed cross-tab memory × method %d, want %d", got, want)
	}
}

// TestMultipleValuesCheck checks each value of a multi-valued cell at its
// own column: unknown, empty and repeated values.
func TestMultipleValuesCheck(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(agentsDir)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, PapersFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "reflection; memory,method", "reflection; memroy;; reflection,method", 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	c, v := loadAgents(t, dir)
	ds := Check(c, v, CheckOptions{Today: openToday})
	line := strings.Split(s, "\n")
	var row int
	for i, l := range line {
		if strings.HasPrefix(l, "reflexion,") {
			row = i
		}
	}
	col := strings.Index(line[row], "reflection; memroy") + 1
	want := []string{
		p + ":" + itoa(row+1) + ":" + itoa(col+12) + `: error: topic: "memroy" is not in the vocabulary; allowed: planning, reasoning, reflection, memory, tool-use, multi-agent, role-play, software, embodied, evaluation, web; did you mean "memory"?`,
		p + ":" + itoa(row+1) + ":" + itoa(col+19) + `: error: topic: an empty value between ';' separators; write the values as "reflection; memroy; reflection"`,
		p + ":" + itoa(row+1) + ":" + itoa(col+21) + `: error: topic: "reflection" repeated in the cell; each value once`,
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestMultipleValuesFormat checks that fmt writes a multi-valued cell's
// values in vocabulary order, "; "-separated, and leaves other cells.
func TestMultipleValuesFormat(t *testing.T) {
	_, v := loadAgents(t, agentsDir)
	src := "key,topic,kind\nb,tool-use ;reasoning,method\na,web,benchmark\n"
	got, err := FormatCSVWith(PapersFile, []byte(src), v)
	if err != nil {
		t.Fatal(err)
	}
	want := "key,topic,kind\na,web,benchmark\nb,reasoning; tool-use,method\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
