package browsertest

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/chart"
	"github.com/masrl/masrl/site/chartlib"
	"github.com/masrl/masrl/site/search"
)

// loadCorpus reads the real corpus (corpustest: MASRL_CORPUS, or
// ../shared/corpus beside the checkout).
func loadCorpus(t *testing.T) (*corpus.Corpus, *corpus.Vocabulary) {
	t.Helper()
	c, err := corpus.Load(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return c, v
}

// hostileText is markup that would run script if any layer inserted it as
// HTML, and would request /x if it became an image.
const hostileText = `<img src=x onerror="window.__hostile=1">{a}</script><script>window.__hostile=2</script>`

// fixtureSite writes a small site into a temporary directory: one page with
// every kind of chart drawn from the corpus, and a papers page with the
// search, both with the real assets. It lets the chart and search assets be
// tested in a browser independently of the site's templates.
func fixtureSite(t *testing.T, c *corpus.Corpus, v *corpus.Vocabulary) (dir string, ids []string) {
	t.Helper()
	root := repoRoot(t)
	dir = t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "assets", "echarts.min.js"), chartlib.Library(), 0o644))
	for _, a := range []string{"charts.js", "search.js"} {
		b, err := os.ReadFile(filepath.Join(root, "site", "assets", a))
		must(err)
		must(os.WriteFile(filepath.Join(dir, "assets", a), b, 0o644))
	}

	var figs []template.HTML
	add := func(name string, f *chart.Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		h, err := site.DrawFigure(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, h)
		ids = append(ids, chart.ID(name))
	}
	link := func(field string) func(string) string {
		return func(value string) string { return "papers.html?" + field + "=" + value }
	}
	for _, f := range v.Fields {
		s := chart.FieldBars("field-"+strings.ReplaceAll(f.Name, "_", "-"), f, c.Histogram(v, f.Name), link(f.Name))
		h, err := chart.Bars(s)
		add(s.Name, h, err)
	}
	cg := v.Field("credit_granularity")
	for _, pair := range [][2]string{{"reward_type", "credit_granularity"}, {"orchestration_form", "credit_granularity"}, {"scenario", "orchestration_form"}} {
		name := strings.ReplaceAll("coverage-"+pair[0]+"-"+pair[1], "_", "-")
		s := chart.CrossTabHeatmap(name, v.Field(pair[0]), v.Field(pair[1]), c.CrossTab(v, pair[0], pair[1]),
			func(r, col string) string { return "papers.html?" + pair[0] + "=" + r + "&" + pair[1] + "=" + col })
		h, err := chart.Heatmap(s)
		add(name, h, err)
	}
	fs := chart.FunnelFlow("screening", v.Field("stage"), c.Funnel(v), nil)
	h, err := chart.Flow(fs)
	add(fs.Name, h, err)
	ys := chart.YearsByCategory("years", c, v.Field("category"))
	h, err = chart.Stacked(ys)
	add(ys.Name, h, err)
	ls := chart.CreditLadder("credit-ladder", cg, c.Histogram(v, "credit_granularity"), link("credit_granularity"))
	h, err = chart.Ladder(ls)
	add(ls.Name, h, err)

	// A chart whose texts are hostile markup: the browser test checks that
	// nothing of it becomes HTML, in the chart or in its tooltip.
	hostile := chart.BarSpec{Name: "hostile", Title: hostileText, XName: hostileText, YName: "Entries",
		Bars: []chart.Bar{{Label: hostileText, Value: 3}, {Label: "ok", Value: 1}}}
	h, err = chart.Bars(hostile)
	add(hostile.Name, h, err)

	var page bytes.Buffer
	page.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Charts</title>
<link rel="icon" href="data:,"><meta name="color-scheme" content="light dark">
<style>body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}@media (prefers-color-scheme: dark){body{background:#111;color:#eee}a{color:#8cf}}.chart{width:100%}</style>
</head><body><main><h1>Charts</h1>`)
	for _, f := range figs {
		page.WriteString(string(f))
	}
	page.WriteString(`</main><script src="assets/charts.js" defer></script></body></html>`)
	must(os.WriteFile(filepath.Join(dir, "index.html"), page.Bytes(), 0o644))

	ix := search.Build(c, v, func(k string) string { return "papers/" + k + "/" })
	js, err := ix.JSON()
	must(err)
	must(os.WriteFile(filepath.Join(dir, "search-index.json"), js, 0o644))
	var papers bytes.Buffer
	papers.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Papers</title><link rel="icon" href="data:,"><style>[hidden]{display:none!important}</style></head><body><main><h1>Papers</h1><ul id="paper-list" data-search-index="search-index.json">`)
	// One page of the list, as the site's papers page holds.
	for _, e := range c.Papers[:min(len(c.Papers), site.PapersPerPage)] {
		fmt.Fprintf(&papers, `<li data-key="%s" data-credit_granularity="%s">%s</li>`,
			template.HTMLEscapeString(e.Key), template.HTMLEscapeString(e.Value("credit_granularity")), template.HTMLEscapeString(e.Title))
	}
	papers.WriteString(`</ul></main><script src="assets/search.js" defer></script></body></html>`)
	must(os.WriteFile(filepath.Join(dir, "papers.html"), papers.Bytes(), 0o644))
	return dir, ids
}
