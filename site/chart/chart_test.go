package chart

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"html/template"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/templates"

	"github.com/masrl/masrl/internal/golden"
)

// sampleBars is a small field with a zero, so the zero marker is exercised.
func sampleBars() BarSpec {
	return BarSpec{
		Name: "sample-bars", Title: "Credit granularity", Caption: "A sample.",
		XName: "Credit unit", YName: "Entries",
		Bars: []Bar{{Label: "Team", Value: 5, URL: "terms/team/"}, {Label: "Message", Value: 0}, {Label: "Agent", Value: 12}},
	}
}

func sampleHeatmap() HeatmapSpec {
	return HeatmapSpec{
		Name: "sample-heatmap", Title: "Reward × credit", RowName: "Reward", ColName: "Credit",
		Rows: []string{"Shared", "Process"}, Cols: []string{"Team", "Turn", "Token"},
		Counts: [][]float64{{3, 0, 1}, {0, 2, 0}},
		URLs:   [][]string{{"papers/?a=1", "papers/?a=2", "papers/?a=3"}, {"papers/?a=4", "papers/?a=5", "papers/?a=6"}},
	}
}

func sampleFlow() FlowSpec {
	return FlowSpec{
		Name: "sample-flow", Title: "Screening flow", Candidates: 10, Retained: 7, Excluded: 3,
		Stages: []Bar{{Label: "Abstract", Value: 2}, {Label: "Full text", Value: 1}, {Label: "Duplicate", Value: 0}},
	}
}

func sampleStacked() StackedSpec {
	return StackedSpec{
		Name: "sample-stacked", Title: "Per year", XName: "Year", YName: "Entries",
		Columns: []string{"2024", "2025"},
		Series:  []Series{{Name: "Method", Values: []float64{1, 4}}, {Name: "Survey", Values: []float64{0, 2}}},
	}
}

// render runs every chart kind over its sample, after letting mutate
// change the samples.
func renderAll(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, fn := range map[string]func() (string, error){
		"bars": func() (string, error) { return drawn(Bars(sampleBars())) },
		"ladder": func() (string, error) {
			s := sampleBars()
			s.Name = "sample-ladder"
			return drawn(Ladder(s))
		},
		"heatmap": func() (string, error) { return drawn(Heatmap(sampleHeatmap())) },
		"flow":    func() (string, error) { return drawn(Flow(sampleFlow())) },
		"stacked": func() (string, error) { return drawn(Stacked(sampleStacked())) },
	} {
		h, err := fn()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = h
	}
	return out
}

// TestGolden pins the markup of every kind: the output is deterministic
// (rendered twice, byte-identical) and reviewed as a file.
func TestGolden(t *testing.T) {
	first, second := renderAll(t), renderAll(t)
	for name, got := range first {
		t.Run(name, func(t *testing.T) {
			if got != second[name] {
				t.Fatal("two renders differ")
			}
			golden.Check(t, filepath.Join("testdata", name+".golden.html"), []byte(got))
		})
	}
}

const attack = `</script><script>alert(1)</script>`

// TestEscaping puts a script-closing label everywhere text can go and
// checks that it never appears raw, while the option JSON still decodes to
// the original text.
func TestEscaping(t *testing.T) {
	bars := sampleBars()
	bars.Title = attack
	bars.Caption = attack
	bars.XName = attack
	bars.Bars[0].Label = attack
	heat := sampleHeatmap()
	heat.Rows[0] = attack
	heat.ColName = attack
	flow := sampleFlow()
	flow.Stages[0].Label = attack
	stacked := sampleStacked()
	stacked.Series[0].Name = attack
	stacked.Columns[0] = attack
	cases := map[string]func() (string, error){
		"bars":    func() (string, error) { return drawn(Bars(bars)) },
		"ladder":  func() (string, error) { return drawn(Ladder(bars)) },
		"heatmap": func() (string, error) { return drawn(Heatmap(heat)) },
		"flow":    func() (string, error) { return drawn(Flow(flow)) },
		"stacked": func() (string, error) { return drawn(Stacked(stacked)) },
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := fn()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "<script>") || strings.Contains(out, "alert(1)</") {
				t.Fatalf("raw script in output:\n%s", out)
			}
			if n := strings.Count(out, "<script"); n != 1 {
				t.Fatalf("want exactly one (JSON) script element, got %d", n)
			}
			if !strings.Contains(out, `<script type="application/json"`) {
				t.Fatal("option is not in a JSON data island")
			}
			opt := optionJSON(t, out)
			if !strings.Contains(opt, `\u003c/script\u003e`) {
				t.Errorf("option JSON does not carry the label escaped:\n%s", opt)
			}
			var decoded any
			if err := json.Unmarshal([]byte(opt), &decoded); err != nil {
				t.Fatal(err)
			}
			if !containsString(decoded, attack) {
				t.Error("decoded option lost the label's text")
			}
			if !strings.Contains(out, html.EscapeString(attack)) {
				t.Error("HTML text does not carry the label escaped")
			}
		})
	}
}

func containsString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, x := range v {
			if containsString(x, s) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if containsString(x, s) {
				return true
			}
		}
	}
	return false
}

var optionRE = regexp.MustCompile(`(?s)<script type="application/json" id="([^"]+)-option">(.*?)</script>`)

func optionJSON(t *testing.T, out string) string {
	t.Helper()
	m := optionRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no option in:\n%s", out)
	}
	return m[2]
}

func TestRejects(t *testing.T) {
	for name, tc := range map[string]struct {
		run  func() error
		want error
	}{
		"func marker in label": {func() error {
			s := sampleBars()
			s.Bars[1].Label = "__f__function(){alert(1)}__f__"
			_, err := Bars(s)
			return err
		}, ErrFuncMarker},
		"func marker in title":  {func() error { s := sampleHeatmap(); s.Title = "x __F__ y"; _, err := Heatmap(s); return err }, ErrFuncMarker},
		"func marker in stage":  {func() error { s := sampleFlow(); s.Stages[0].Label = "__f__"; _, err := Flow(s); return err }, ErrFuncMarker},
		"func marker in series": {func() error { s := sampleStacked(); s.Series[1].Name = "a__f__"; _, err := Stacked(s); return err }, ErrFuncMarker},
		"NaN bar":               {func() error { s := sampleBars(); s.Bars[0].Value = math.NaN(); _, err := Bars(s); return err }, ErrNotFinite},
		"Inf ladder":            {func() error { s := sampleBars(); s.Bars[2].Value = math.Inf(1); _, err := Ladder(s); return err }, ErrNotFinite},
		"NaN cell":              {func() error { s := sampleHeatmap(); s.Counts[1][2] = math.NaN(); _, err := Heatmap(s); return err }, ErrNotFinite},
		"NaN candidates":        {func() error { s := sampleFlow(); s.Candidates = math.NaN(); _, err := Flow(s); return err }, ErrNotFinite},
		"-Inf stacked": {func() error {
			s := sampleStacked()
			s.Series[0].Values[0] = math.Inf(-1)
			_, err := Stacked(s)
			return err
		}, ErrNotFinite},
		"javascript link": {func() error {
			s := sampleHeatmap()
			s.URLs[0][0] = "javascript:alert(1)"
			_, err := Heatmap(s)
			return err
		}, nil},
		"protocol-relative":      {func() error { s := sampleBars(); s.Bars[0].URL = "//evil.example/"; _, err := Bars(s); return err }, nil},
		"bad name":               {func() error { s := sampleBars(); s.Name = "Bad Name"; _, err := Bars(s); return err }, nil},
		"funnel does not add up": {func() error { s := sampleFlow(); s.Retained = 8; _, err := Flow(s); return err }, nil},
		"ragged heatmap":         {func() error { s := sampleHeatmap(); s.Counts[1] = s.Counts[1][:2]; _, err := Heatmap(s); return err }, nil},
	} {
		t.Run(name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestAllErrorsReported checks that one call reports every problem, not
// just the first.
func TestAllErrorsReported(t *testing.T) {
	s := sampleBars()
	s.Bars[0].Label = "__f__"
	s.Bars[2].Value = math.NaN()
	_, err := Bars(s)
	if !errors.Is(err, ErrFuncMarker) || !errors.Is(err, ErrNotFinite) {
		t.Fatalf("want both errors, got %v", err)
	}
}

// option decodes the option of a rendered chart.
type option struct {
	Series []struct {
		Type  string            `json:"type"`
		Data  []json.RawMessage `json:"data"`
		Links []json.RawMessage `json:"links"`
	} `json:"series"`
	XAxis []struct {
		Data []string `json:"data"`
	} `json:"xAxis"`
	YAxis []struct {
		Data    []string `json:"data"`
		Inverse bool     `json:"inverse"`
	} `json:"yAxis"`
}

func decode(t *testing.T, h string) option {
	t.Helper()
	var o option
	if err := json.Unmarshal([]byte(optionJSON(t, h)), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestCorpusCharts builds every chart the site draws from the real corpus
// and checks the counts in the options against the corpus' own counting.
func TestCorpusCharts(t *testing.T) {
	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range v.FieldsOf(corpus.PapersFile) {
		h := c.Histogram(v, f.Name)
		out, err := Bars(FieldBars("field-"+strings.ReplaceAll(f.Name, "_", "-"), f, h, nil))
		if err != nil {
			t.Fatal(err)
		}
		o := decode(t, draw(t, out))
		if len(o.Series) != 1 || len(o.Series[0].Data) != len(f.Values) {
			t.Errorf("%s: %d series, want 1 with %d points", f.Name, len(o.Series), len(f.Values))
		}
		zeros := 0
		for _, cell := range h.Cells {
			if cell.Count == 0 {
				zeros++
			}
		}
		if got := strings.Count(optionJSON(t, draw(t, out)), `"formatter":"`+zeroText+`"`); got != zeros {
			t.Errorf("%s: %d zero markers, want %d", f.Name, got, zeros)
		}
	}
	cg := v.Field("credit_granularity")
	x := c.CrossTab(v, "reward_type", "credit_granularity")
	out, err := Heatmap(CrossTabHeatmap("reward-credit", v.Field("reward_type"), cg, x, func(r, c string) string { return "papers/?reward_type=" + r + "&credit_granularity=" + c }))
	if err != nil {
		t.Fatal(err)
	}
	o := decode(t, draw(t, out))
	if want := len(x.RowValues) * len(x.ColValues); len(o.Series[0].Data) != want {
		t.Errorf("heatmap has %d cells, want %d", len(o.Series[0].Data), want)
	}
	var cell struct {
		Value [3]float64 `json:"value"`
		URL   string     `json:"url"`
	}
	for _, raw := range o.Series[0].Data {
		if err := json.Unmarshal(raw, &cell); err != nil {
			t.Fatal(err)
		}
		i, j := int(cell.Value[1]), int(cell.Value[0])
		if got, want := int(cell.Value[2]), x.Cells[i][j].Count; got != want {
			t.Errorf("cell %s/%s = %d, want %d", x.RowValues[i], x.ColValues[j], got, want)
		}
		if !strings.Contains(cell.URL, "reward_type="+x.RowValues[i]+"&") {
			t.Errorf("cell %d,%d links to %q", i, j, cell.URL)
		}
	}

	fn := c.Funnel(v)
	out, err = Flow(FunnelFlow("screening", v.Field("stage"), fn, nil))
	if err != nil {
		t.Fatal(err)
	}
	o = decode(t, draw(t, out))
	nonzero := 0
	for _, cell := range fn.ByStage.Cells {
		if cell.Count > 0 {
			nonzero++
		}
	}
	if got, want := len(o.Series[0].Links), 2+nonzero; got != want {
		t.Errorf("flow has %d links, want %d", got, want)
	}
	if !strings.Contains(draw(t, out), "Candidate records: "+itoa(fn.Candidates)) {
		t.Error("flow does not show the number of candidates")
	}

	out, err = Ladder(CreditLadder("ladder", cg, c.Histogram(v, "credit_granularity"), nil))
	if err != nil {
		t.Fatal(err)
	}
	o = decode(t, draw(t, out))
	if want := len(cg.Values) - 1; len(o.YAxis[0].Data) != want || o.YAxis[0].Data[0] != "Team" || !o.YAxis[0].Inverse {
		t.Errorf("ladder levels %v (inverse %v), want %d levels from Team down", o.YAxis[0].Data, o.YAxis[0].Inverse, want)
	}

	st := YearsByCategory("years", c, v.Field("category"))
	out, err = Stacked(st)
	if err != nil {
		t.Fatal(err)
	}
	o = decode(t, draw(t, out))
	if want := len(v.Field("category").Values) + 1; len(o.Series) != want {
		t.Errorf("stacked has %d series, want %d", len(o.Series), want)
	}
	sum := 0.0
	for _, s := range st.Series {
		for _, x := range s.Values {
			sum += x
		}
	}
	if int(sum) != len(c.Papers) {
		t.Errorf("stacked sums to %v, want %d entries", sum, len(c.Papers))
	}
}

func itoa(n int) string { return strings.TrimSpace(formatNumber(float64(n))) }

// ExampleID shows how a chart's element IDs follow from its name: the
// container, the option's data island and the data table.
func ExampleID() {
	fmt.Println(ID("credit-ladder"))
	fmt.Println(ID("credit-ladder") + "-option")
	fmt.Println(ID("credit-ladder") + "-data")
	// Output:
	// chart-credit-ladder
	// chart-credit-ladder-option
	// chart-credit-ladder-data
}

// chartTemplate is the site's chart partial (templates/chart.html), which
// draws a Figure as the pages do.
var chartTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("chart.html").ParseFS(templates.FS, "chart.html"))
})

// drawn draws a figure with the chart partial.
func drawn(f *Figure, err error) (string, error) {
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := chartTemplate().ExecuteTemplate(&b, "chart", f); err != nil {
		return "", err
	}
	return b.String(), nil
}

func draw(t testing.TB, f *Figure) string {
	t.Helper()
	s, err := drawn(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNoMarkupInGo: the package builds data, never markup; the chart
// partial is the only place a chart becomes HTML, so html/template is
// the only escaper and --templates restyles charts too.
func TestNoMarkupInGo(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"html/template"` || imp.Path.Value == `"html"` {
				t.Errorf("%s imports %s: chart markup belongs in templates/chart.html", name, imp.Path.Value)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(lit.Value, "<") {
				t.Errorf("%s: markup in a string literal %s: it belongs in templates/chart.html", name, lit.Value)
			}
			return true
		})
	}
}
