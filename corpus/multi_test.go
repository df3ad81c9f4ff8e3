package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// agents is the example list of a multi-valued, nested field with link
// columns and months, in the shape of a popular awesome list
// (corpustest.List).
const agents = "agents"

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
	c, v := loadAgents(t, corpustest.List(t, agents))
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
	st, err := StreamStats(corpustest.List(t, agents), v, StatsOptions{})
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
	dir := corpustest.CopyList(t, agents)
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
	_, v := loadAgents(t, corpustest.List(t, agents))
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

// TestLinkColumns checks the link columns a vocabulary declares: a cell
// that is no http(s) URL is refused at its column, an empty one is fine,
// and a link column may not take a name in use.
func TestLinkColumns(t *testing.T) {
	dir := corpustest.CopyList(t, agents)
	p := filepath.Join(dir, PapersFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "https://github.com/noahshinn/reflexion", "github.com/noahshinn/reflexion", 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	c, v := loadAgents(t, dir)
	ds := Check(c, v, CheckOptions{Today: openToday})
	var row, col int
	for i, l := range strings.Split(s, "\n") {
		if j := strings.Index(l, ",github.com/noahshinn"); j >= 0 {
			row, col = i+1, j+2
		}
	}
	want := p + ":" + itoa(row) + ":" + itoa(col) + `: error: code: "github.com/noahshinn/reflexion" is not an absolute http or https URL; a link column holds one http(s) URL or nothing`
	if len(ds) != 1 || ds[0].String() != want {
		t.Errorf("findings %v\nwant %s", ds, want)
	}
	_, err = ParseVocabulary("v.yaml", []byte("fields:\n  - name: topic\n    values: [{value: a}]\nlinks:\n  - name: topic\n    label: t\n  - name: Code\n    label: code\n  - name: slides\n"))
	for _, w := range []string{
		`v.yaml:5:11: error: link column "topic": the name of a controlled field, another link column or a column masrl reads; give it its own`,
		`v.yaml:7:5: error: link column "Code": use lowercase letters, digits and _ (it is a column of papers.csv)`,
		`v.yaml:9:5: error: link column "slides" needs a label, the link's text (code, project, ...)`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("vocabulary error %v\nlacks %s", err, w)
		}
	}
}

// TestNestedValues checks a field whose values form a tree
// (testdata/lists/agents: multi-agent > role-play > software): a row
// counts under each ancestor of its values once, and a vocabulary with an
// unknown parent or a cycle is refused at the parent's position.
func TestNestedValues(t *testing.T) {
	c, v := loadAgents(t, corpustest.List(t, agents))
	h := c.Histogram(v, "topic")
	ma := h.Cell("multi-agent")
	// chatdev (software) counts under role-play and multi-agent; metagpt
	// (role-play; software) under multi-agent once.
	for _, k := range []string{"chatdev", "metagpt", "camel", "autogen", "swe-agent"} {
		if n := strings.Count(" "+strings.Join(ma.Keys, " ")+" ", " "+k+" "); n != 1 {
			t.Errorf("multi-agent holds %s %d times, want once (keys %v)", k, n, ma.Keys)
		}
	}
	if ma.Count != 5 {
		t.Errorf("multi-agent counts %d, want 5", ma.Count)
	}
	if got := v.Field("topic").Ancestors("software"); !slices.Equal(got, []string{"role-play", "multi-agent"}) {
		t.Errorf("ancestors of software: %v", got)
	}
	_, err := ParseVocabulary("v.yaml", []byte("fields:\n  - name: topic\n    values:\n      - {value: a, parent: c}\n      - {value: b, parent: a}\n      - {value: c, parent: b}\n      - {value: d, parent: x}\n"))
	for _, w := range []string{
		`v.yaml:4:28: error: field "topic": value "a": its parents lead back to it (a cycle); the values of a field form a tree`,
		`v.yaml:7:28: error: field "topic": value "d": parent "x" is not a value of the field`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("vocabulary error %v\nlacks %s", err, w)
		}
	}
}

// TestDateColumns checks the optional date and added columns: a date in
// one of its three forms within the row's year, an added day not after
// today, each refused at its column; and the list order puts a year's
// later month first.
func TestDateColumns(t *testing.T) {
	dir := corpustest.CopyList(t, agents)
	p := filepath.Join(dir, PapersFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "2023,2023-02,2024-06-01,", "2023,2023-13,2099-01-01,", 1)
	s = strings.Replace(s, "2022,2022-10,2024-06-01,", "2022,2021-10,2024-06,", 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	c, v := loadAgents(t, dir)
	var got []string
	for _, d := range Check(c, v, CheckOptions{Today: openToday}) {
		got = append(got, d.Message)
	}
	want := []string{
		`"2024-06": added is the day the row joined the list, YYYY-MM-DD`,
		`date 2021-10 is not in the row's year 2022`,
		`"2023-13": a date is YYYY, YYYY-MM or YYYY-MM-DD (2023-05), a real day`,
		`added 2099-01-01 is after today (` + openToday.Format("2006-01-02") + `)`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c, _ = loadAgents(t, corpustest.List(t, agents))
	e := func(k string) *Entry {
		return c.Papers[slices.IndexFunc(c.Papers, func(e *Entry) bool { return e.Key == k })]
	}
	if CompareForList(e("tree-of-thoughts"), e("hugginggpt")) >= 0 {
		t.Error("tree-of-thoughts (2023-05) does not come before hugginggpt (2023-03)")
	}
}
