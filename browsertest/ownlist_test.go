package browsertest

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site/search"
)

// TestOwnListSite opens the site of a list of one's own
// (testdata/lists/gnnx, three fields of its own declared in its
// vocab.yaml) in Chromium: every page loads without a console error or
// failed request, each field's bar chart and the declared cross-tab's
// heatmap draw, and the papers page's facets are the list's fields: a
// facet leaves exactly the entries search.Index.Match finds, with the
// counts it computes, AND across fields.
func TestOwnListSite(t *testing.T) {
	parallel(t)
	dir := buildOwnList(t)
	ck, err := corpus.Open(filepath.Join(repoRoot(t), "testdata", "lists", "gnnx", "corpus"), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	c, v := ck.Corpus, ck.Vocabulary
	b := startBrowser(t, dir)
	p := b.newPage(t)

	t.Run("pages", func(t *testing.T) {
		for _, page := range sitePages(t, dir) {
			p.open(t, page)
			var charts []string
			p.eval(t, `Array.from(document.querySelectorAll("div.chart")).map(d => d.id)`, &charts)
			if len(charts) > 0 {
				drawAllCharts(t, p)
			}
			p.check(t, page)
		}
	})

	t.Run("charts", func(t *testing.T) {
		for _, tc := range []struct{ page, id string }{
			{"taxonomy/method_family/", chartID("field", "method_family")},
			{"taxonomy/access/", chartID("field", "access")},
			{"coverage/", chartID("coverage", "method_family", "explanation_level")},
			{"", chartID("years")},
		} {
			p.open(t, tc.page)
			drawAllCharts(t, p)
			var series int
			p.eval(t, fmt.Sprintf(`(() => { const el = document.getElementById(%q); const ch = el && window.echarts && echarts.getInstanceByDom(el); return ch ? ch.getOption().series.length : 0 })()`, tc.id), &series)
			if series == 0 {
				t.Errorf("%s: chart %s is not drawn", tc.page, tc.id)
			}
			p.check(t, tc.page)
		}
	})

	t.Run("facets", func(t *testing.T) {
		ix := search.Build(c, v, nil)
		p.open(t, "papers/")
		p.waitFor(t, searchReadyJS)
		var fields []string
		p.eval(t, `Array.from(document.querySelectorAll("#paper-search fieldset.facet")).map(f => f.dataset.field)`, &fields)
		if want := []string{"method_family", "explanation_level", "access"}; !slices.Equal(fields, want) {
			t.Fatalf("facets %v, want the list's fields %v", fields, want)
		}
		toggle := func(field, value string) {
			t.Helper()
			if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS(fmt.Sprintf(`input[name=%q][value=%q]`, field, value))), chromedp.KeyEvent(" ")); err != nil {
				t.Fatal(err)
			}
		}
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("#paper-search summary"))); err != nil {
			t.Fatal(err)
		}
		toggle("method_family", "perturbation")
		p.waitFor(t, `new URLSearchParams(location.search).get("method_family") === "perturbation"`)
		want := sorted(c.Histogram(v, "method_family").Cell("perturbation").Keys)
		if got := p.visibleKeys(t); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("method_family=perturbation leaves %v, want %v", got, want)
		}
		for _, f := range v.FieldsOf(corpus.PapersFile) {
			var got map[string]string
			p.eval(t, fmt.Sprintf(`Object.fromEntries(Array.from(document.querySelectorAll('input[name=%q]')).map(i => [i.value, i.parentElement.querySelector(".facet-count").textContent]))`, f.Name), &got)
			for _, val := range f.Allowed() {
				sel := map[string][]string{"method_family": {"perturbation"}, f.Name: {val}}
				if n := len(ix.Match("", sel)); got[val] != fmt.Sprintf("(%d)", n) {
					t.Errorf("facet %s=%s shows %q, want (%d)", f.Name, val, got[val], n)
				}
			}
		}
		toggle("access", "black_box")
		p.waitFor(t, `new URLSearchParams(location.search).get("access") === "black_box"`)
		want = sorted(ix.Match("", map[string][]string{"method_family": {"perturbation"}, "access": {"black_box"}}))
		if got := p.visibleKeys(t); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("method_family=perturbation and access=black_box leave %v, want %v", got, want)
		}
		p.check(t, "papers/ facets")
		checkAxe(t, p, "papers/ of the list of one's own")
	})
}
