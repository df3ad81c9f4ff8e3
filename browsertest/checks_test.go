package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/search"
)

// drawnCharts reads, for every .chart container on the page, whether it
// holds a canvas and the series of its ECharts instance.
const drawnChartsJS = `(() => {
  const out = {};
  for (const div of document.querySelectorAll("div.chart")) {
    const inst = window.echarts && echarts.getInstanceByDom(div);
    const opt = inst ? inst.getOption() : null;
    out[div.id] = {
      canvas: !!div.querySelector("canvas"),
      width: div.clientWidth, height: div.clientHeight,
      series: opt ? opt.series.map(s => ({
        type: s.type,
        points: (s.data || []).length,
        links: (s.links || []).length,
        sum: s.type === "sankey"
          ? (s.links || []).reduce((a, l) => a + l.value, 0)
          : (s.data || []).reduce((a, d) => {
              let x = d !== null && typeof d === "object" && !Array.isArray(d) ? d.value : d;
              if (Array.isArray(x)) x = x[x.length - 1];
              return a + (typeof x === "number" ? x : 0);
            }, 0),
      })) : null,
    };
  }
  return out;
})()`

type drawn struct {
	Canvas bool    `json:"canvas"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Series []shape `json:"series"`
}

// drawAllCharts scrolls to every chart in turn, since charts.js draws a
// chart only when it comes near the viewport, waits until each has drawn,
// and scrolls back to the top.
func drawAllCharts(t *testing.T, p *page) {
	t.Helper()
	var n int
	p.eval(t, `document.querySelectorAll("div.chart").length`, &n)
	for i := range n {
		p.eval(t, fmt.Sprintf(`document.querySelectorAll("div.chart")[%d].scrollIntoView({block: "center"}), true`, i), new(bool))
		p.waitFor(t, fmt.Sprintf(`!!document.querySelectorAll("div.chart")[%d].querySelector("canvas")`, i))
	}
	p.eval(t, `window.scrollTo(0, 0), true`, new(bool))
}

// checkLazyCharts asserts, on a page just opened, that a chart more than
// two screens below the viewport is not drawn yet, and that the chart
// library is not loaded while no chart is near.
func checkLazyCharts(t *testing.T, p *page, where string) {
	t.Helper()
	var st struct {
		Far     []string `json:"far"`
		Drawn   []string `json:"drawn"`
		Near    int      `json:"near"`
		Library bool     `json:"library"`
	}
	p.eval(t, `(() => {
	  const all = Array.from(document.querySelectorAll("div.chart"));
	  const far = all.filter(d => d.getBoundingClientRect().top > 3 * innerHeight);
	  return {
	    far: far.map(d => d.id),
	    drawn: far.filter(d => d.querySelector("canvas")).map(d => d.id),
	    near: all.length - far.length,
	    library: !!window.echarts,
	  };
	})()`, &st)
	if len(st.Drawn) > 0 {
		t.Errorf("%s: charts %v, far below the first screen, were drawn before the reader scrolled to them", where, st.Drawn)
	}
	if st.Near == 0 && st.Library {
		t.Errorf("%s: the chart library loaded while no chart is near the viewport (far: %v)", where, st.Far)
	}
}

// checkCharts asserts that every chart on the page drew and holds the
// series the corpus says it must; want lists the charts this page must
// have (by element ID), all lists every chart the site may draw.
func checkCharts(t *testing.T, p *page, where string, want []string, all map[string][]shape) {
	t.Helper()
	drawAllCharts(t, p)
	var got map[string]drawn
	p.eval(t, drawnChartsJS, &got)
	for _, id := range want {
		if _, ok := got[id]; !ok {
			t.Errorf("%s: chart %s missing", where, id)
		}
	}
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		d := got[id]
		exp, known := all[id]
		switch {
		case !known:
			t.Errorf("%s: chart %s is not one the corpus defines", where, id)
		case !d.Canvas || d.Width < 100 || d.Height < 100:
			t.Errorf("%s: chart %s did not draw (canvas %v, %dx%d)", where, id, d.Canvas, d.Width, d.Height)
		case !slices.Equal(d.Series, exp):
			t.Errorf("%s: chart %s holds series %+v, want %+v", where, id, d.Series, exp)
		}
	}
}

// searchReadyJS holds once the papers page's search has loaded its index.
// search.js loads it only when the reader turns to the search, so the
// condition focuses the search box, as a reader would.
const searchReadyJS = `(document.getElementById("paper-search-q") && document.getElementById("paper-search-q").focus(), document.querySelector("#paper-list[data-search-ready]") !== null)`

// visibleKeysJS lists the keys of the entries a reader sees: the page's
// own list, or, while a search is active, the results search.js draws.
const visibleKeysJS = `Array.from(document.querySelectorAll("#paper-list [data-key], #search-results [data-key]"))
  .filter(e => !e.hidden && e.getClientRects().length > 0).map(e => e.getAttribute("data-key"))`

// visibleKeys returns the keys of the visible entries, sorted: the page
// groups entries by category, so its order is not the corpus order.
func (p *page) visibleKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	p.eval(t, visibleKeysJS, &keys)
	slices.Sort(keys)
	return keys
}

func sorted(keys []string) []string {
	out := slices.Clone(keys)
	slices.Sort(out)
	return out
}

// searchQuery picks a free-text query from the corpus that narrows the list
// without emptying it: a word of the first entry's title that fewer than
// half the entries share, preferring the rarest.
func searchQuery(ix *search.Index) string {
	best, bestN := "", len(ix.Entries)
	for w := range strings.FieldsSeq(strings.ToLower(ix.Entries[0].Title)) {
		w = strings.Trim(w, ":,.()")
		if len(w) < 4 {
			continue
		}
		n := len(ix.Match(w, nil))
		if n > 1 && n < bestN && n < len(ix.Entries)/2 {
			best, bestN = w, n
		}
	}
	return best
}

// checkSearch exercises the papers page at path: a query narrows the rows
// to the entries that match in Go, the facet credit_granularity=message
// leaves exactly the corpus' cell, the combined state is in the URL, and
// reloading that URL restores the same rows.
func checkSearch(t *testing.T, p *page, path string, c *corpus.Corpus, v *corpus.Vocabulary) {
	t.Helper()
	ix := search.Build(c, v, nil)
	p.open(t, path)
	p.waitFor(t, searchReadyJS)
	// Before searching the page shows its own entries, a page of the list.
	all := p.visibleKeys(t)
	if want := min(len(c.Papers), site.PapersPerPage); len(all) != want {
		t.Fatalf("%s: %d entries visible before searching, want %d", path, len(all), want)
	}

	q := searchQuery(ix)
	want := sorted(ix.Match(q, nil))
	if q == "" || len(want) == 0 {
		t.Fatal("no usable query in the corpus")
	}
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#paper-search-q"), q)); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, fmt.Sprintf(`new URLSearchParams(location.search).get("q") === %q`, q))
	if got := p.visibleKeys(t); !slices.Equal(got, want) {
		t.Errorf("query %q leaves %v, want %v", q, got, want)
	}
	var status string
	p.eval(t, `document.getElementById("search-status").textContent`, &status)
	if !strings.Contains(status, fmt.Sprintf("%d of %d", len(want), len(c.Papers))) {
		t.Errorf("live region says %q after query %q, want %d of %d", status, q, len(want), len(c.Papers))
	}

	// Clear, then filter by one facet value, by keyboard: focus the
	// checkbox and press space, as a keyboard-only reader would.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(".search-reset")),
		chromedp.Click(chromedp.CSS("#paper-search summary")),
		chromedp.Focus(chromedp.CSS(`input[name="credit_granularity"][value="message"]`)),
		chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, `new URLSearchParams(location.search).get("credit_granularity") === "message"`)
	cell := c.Histogram(v, "credit_granularity").Cell("message")
	if got := p.visibleKeys(t); !slices.Equal(got, sorted(cell.Keys)) {
		t.Errorf("facet credit_granularity=message leaves %v, want %v", got, cell.Keys)
	}
	// The count beside every value is what checking it would leave given
	// the other fields' selections: for another field, ANDed with
	// message; for credit_granularity itself, the value's own count.
	counts := func(field string) map[string]string {
		var m map[string]string
		p.eval(t, fmt.Sprintf(`Object.fromEntries(Array.from(document.querySelectorAll('input[name=%q]')).map(i => [i.value, i.parentElement.querySelector(".facet-count").textContent]))`, field), &m)
		return m
	}
	for _, field := range []string{"category", "credit_granularity"} {
		got := counts(field)
		for _, val := range v.Field(field).Allowed() {
			sel := map[string][]string{"credit_granularity": {"message"}, field: {val}}
			n := len(ix.Match("", sel))
			if got[val] != fmt.Sprintf("(%d)", n) {
				t.Errorf("facet %s=%s shows %q, want (%d)", field, val, got[val], n)
			}
		}
	}
	toggle := func(field, value string) {
		t.Helper()
		if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS(fmt.Sprintf(`input[name=%q][value=%q]`, field, value))), chromedp.KeyEvent(" ")); err != nil {
			t.Fatal(err)
		}
	}
	// OR within a field: message or turn.
	toggle("credit_granularity", "turn")
	p.waitFor(t, `new URLSearchParams(location.search).getAll("credit_granularity").length === 2`)
	if got, want := p.visibleKeys(t), sorted(ix.Match("", map[string][]string{"credit_granularity": {"message", "turn"}})); !slices.Equal(got, want) {
		t.Errorf("credit_granularity=message|turn leaves %v, want %v", got, want)
	}
	toggle("credit_granularity", "turn")
	// AND across fields: message and the category of its first entry.
	cat := ""
	for _, e := range ix.Entries {
		if e.Key == cell.Keys[0] {
			cat = e.Tags["category"]
		}
	}
	toggle("category", cat)
	p.waitFor(t, fmt.Sprintf(`new URLSearchParams(location.search).get("category") === %q && new URLSearchParams(location.search).getAll("credit_granularity").length === 1`, cat))
	if got, want := p.visibleKeys(t), sorted(ix.Match("", map[string][]string{"credit_granularity": {"message"}, "category": {cat}})); !slices.Equal(got, want) {
		t.Errorf("credit_granularity=message and category=%s leave %v, want %v", cat, got, want)
	}
	toggle("category", cat)
	p.waitFor(t, `!new URLSearchParams(location.search).has("category")`)

	// A shared URL with both restores the same rows on a fresh load.
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#paper-search-q"), q)); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, fmt.Sprintf(`new URLSearchParams(location.search).get("q") === %q`, q))
	before := p.visibleKeys(t)
	wantBoth := sorted(ix.Match(q, map[string][]string{"credit_granularity": {"message"}}))
	if !slices.Equal(before, wantBoth) {
		t.Errorf("query %q with credit_granularity=message leaves %v, want %v", q, before, wantBoth)
	}
	var shared string
	p.eval(t, `location.href`, &shared)
	p.open(t, strings.TrimPrefix(shared, p.b.base))
	p.waitFor(t, searchReadyJS)
	if got := p.visibleKeys(t); !slices.Equal(got, before) {
		t.Errorf("reloading %s shows %v, want %v", shared, got, before)
	}
	var checked bool
	var qv string
	p.eval(t, `document.querySelector('input[name="credit_granularity"][value="message"]').checked`, &checked)
	p.eval(t, `document.getElementById("paper-search-q").value`, &qv)
	if !checked || qv != q {
		t.Errorf("reload restored checkbox %v and query %q, want true and %q", checked, qv, q)
	}
	u, _ := url.Parse(shared)
	if u.Query().Get("q") != q {
		t.Errorf("shared URL %s lost the query", shared)
	}
}

// axe runs axe-core (from node_modules) in the page and fails on serious or
// critical violations.
func checkAxe(t *testing.T, p *page, where string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "node_modules", "axe-core", "axe.min.js"))
	need(t, err == nil, "axe-core not installed: %v (run make node_modules)", err)
	var ok bool
	p.eval(t, string(src)+";\ntrue", &ok)
	var violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any `json:"target"`
		} `json:"nodes"`
	}
	p.eval(t, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, &violations)
	for _, v := range violations {
		if v.Impact != "serious" && v.Impact != "critical" {
			continue
		}
		var targets []string
		for i, n := range v.Nodes {
			if i == 5 {
				targets = append(targets, fmt.Sprintf("and %d more", len(v.Nodes)-5))
				break
			}
			b, _ := json.Marshal(n.Target)
			targets = append(targets, string(b))
		}
		t.Errorf("%s: axe %s (%s): %s at %s", where, v.ID, v.Impact, v.Help, strings.Join(targets, ", "))
	}
}

// framesPaintedJS resolves true once two frames have been painted since it
// was evaluated: whatever the page changed before is on the screen.
const framesPaintedJS = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`

// schemeAppliedJS holds once the page sees the emulated colour scheme and
// two frames have been painted since: the media query's change event,
// on which charts.js redraws every drawn chart in the scheme's theme,
// fires before the first of them.
func schemeAppliedJS(scheme string) string {
	return fmt.Sprintf(`matchMedia("(prefers-color-scheme: %s)").matches && %s`, scheme, framesPaintedJS)
}

// screenshot writes a full-page PNG of the current page in the given colour
// scheme into testdata/screenshots (gitignored).
func screenshot(t *testing.T, p *page, name, scheme string) {
	t.Helper()
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p.waitFor(t, schemeAppliedJS(scheme))
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+"-"+scheme+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// screenshotCharts writes one PNG per chart container (ID), to look at a
// chart at full size.
func screenshotCharts(t *testing.T, p *page, prefix, scheme string, ids []string) {
	t.Helper()
	dir := filepath.Join("testdata", "screenshots")
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, schemeAppliedJS(scheme))
	for _, id := range ids {
		buf, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS("#"+id)))
		if err != nil {
			t.Fatalf("screenshot %s: %v", id, err)
		}
		if err := os.WriteFile(filepath.Join(dir, prefix+"-"+id+"-"+scheme+".png"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// screenshotTiles writes the page as viewport-sized PNGs, top to bottom,
// for looking at a long page at a legible scale.
func screenshotTiles(t *testing.T, p *page, name string, max int) {
	t.Helper()
	dir := filepath.Join("testdata", "screenshots")
	var height, view int
	p.eval(t, `document.documentElement.scrollHeight`, &height)
	p.eval(t, `window.innerHeight`, &view)
	for i := 0; i*view < height && i < max; i++ {
		var ok bool
		p.eval(t, fmt.Sprintf(`window.scrollTo(0, %d), true`, i*view), &ok)
		p.waitFor(t, framesPaintedJS)
		buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-tile%02d.png", name, i)), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ok bool
	p.eval(t, `window.scrollTo(0, 0), true`, &ok)
}
