package browsertest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/corpus"
)

// homeBudget is the most the home page may weigh without the chart
// library: its HTML, style sheets and scripts, as received.
const homeBudget = 100 * 1024

// sitePages lists every HTML page of the built site, slash-separated and
// sorted.
func sitePages(t *testing.T, dir string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		pages = append(pages, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pages)
	return pages
}

// pageType names the kind of a page by its path, for the weight report and
// to pick the charts a page must have.
func pageType(p string) string {
	parts := strings.Split(p, "/")
	switch {
	case p == "index.html":
		return "home"
	case p == "404.html":
		return "404"
	case p == "coverage/survey/index.html": // the survey's pool's coverage
		return "coverage"
	case len(parts) == 2:
		return parts[0] // papers, taxonomy, coverage, excluded, orchestration, about, ...
	case parts[0] == "papers" && parts[1] == "page": // papers/page/N/
		return "papers"
	case parts[0] == "papers":
		return "entry"
	case parts[0] == "taxonomy" && len(parts) == 3:
		return "field"
	case parts[0] == "taxonomy":
		return "term"
	case parts[0] == "coverage":
		return "cell"
	case parts[0] == "orchestration":
		return "subdecision"
	}
	return parts[0]
}

// wantCharts returns the charts a page must draw, by element ID, computed
// from the vocabulary: the home page has the years, the ladder, the flow and
// a bar chart per field; a field page its field's chart; the exclusion log
// the flow; a coverage page a heatmap per default cross-tab, named for its
// view (coverage-survey-… for the survey's pool), and as many as its own
// tables.
func wantCharts(page string, v *corpus.Vocabulary) []string {
	switch pageType(page) {
	case "coverage":
		var ids []string
		for _, rc := range v.CrossTabs {
			if strings.HasPrefix(page, "coverage/survey/") {
				ids = append(ids, chartID("coverage", "survey", rc[0], rc[1]))
			} else {
				ids = append(ids, chartID("coverage", rc[0], rc[1]))
			}
		}
		return ids
	case "home":
		ids := []string{chartID("years"), chartID("credit_ladder"), chartID("screening")}
		for _, f := range v.Fields {
			ids = append(ids, chartID("field", f.Name))
		}
		return ids
	case "field":
		return []string{chartID("field", strings.Split(page, "/")[1])}
	case "excluded":
		return []string{chartID("screening")}
	}
	return nil
}

var crosstabPattern = regexp.MustCompile(`<table class="crosstab">`)

// TestSite walks every page of the built site in Chromium.
func TestSite(t *testing.T) {
	parallel(t)
	dir := publicDir(t)
	c, v := loadCorpus(t)
	pool, err := corpus.LoadPool()
	if err != nil {
		t.Fatal(err)
	}
	shapes := corpusShapes(c, v, pool)
	b := startBrowser(t, dir)
	p := b.newPage(t)
	pages := sitePages(t, dir)
	if len(pages) < len(c.Papers) {
		t.Fatalf("only %d pages for %d entries", len(pages), len(c.Papers))
	}

	type weight struct {
		pages           int
		min, max, total int64
	}
	weights := map[string]*weight{}

	t.Run("pages", func(t *testing.T) {
		for _, page := range pages {
			p.open(t, page)
			if pageType(page) == "papers" {
				var early bool
				p.eval(t, `performance.getEntriesByType("resource").some(e => e.name.endsWith("/search-index.json"))`, &early)
				if early {
					t.Errorf("%s loaded the search index before the reader turned to the search", page)
				}
				p.waitFor(t, searchReadyJS)
			}
			var nCharts int
			p.eval(t, `document.querySelectorAll("div.chart").length`, &nCharts)
			want := wantCharts(page, v)
			if pageType(page) == "coverage" {
				src, err := os.ReadFile(filepath.Join(dir, page))
				if err != nil {
					t.Fatal(err)
				}
				if n := len(crosstabPattern.FindAllIndex(src, -1)); n == 0 || nCharts != n {
					t.Errorf("%s: %d heatmaps for %d cross-tabs", page, nCharts, n)
				}
			}
			if nCharts > 0 || len(want) > 0 {
				checkLazyCharts(t, p, page)
				checkCharts(t, p, page, want, shapes)
			}
			p.check(t, page)
			lib, rest, urls := p.weight()
			if nCharts == 0 && lib > 0 {
				t.Errorf("%s draws no chart but loads the chart library", page)
			}
			if nCharts > 0 && lib == 0 {
				t.Errorf("%s draws charts without loading the chart library (%v)", page, urls)
			}
			if page == "index.html" && rest > homeBudget {
				t.Errorf("home page weighs %d bytes without echarts, over the budget of %d: %v", rest, homeBudget, urls)
			}
			ty := pageType(page)
			w := weights[ty]
			if w == nil {
				w = &weight{min: rest, max: rest}
				weights[ty] = w
			}
			w.pages++
			w.total += rest
			w.min, w.max = min(w.min, rest), max(w.max, rest)
		}
	})
	types := make([]string, 0, len(weights))
	for ty := range weights {
		types = append(types, ty)
	}
	slices.Sort(types)
	for _, ty := range types {
		w := weights[ty]
		t.Logf("weight without echarts: %-13s %3d pages, min %6d B, max %6d B, mean %6d B", ty, w.pages, w.min, w.max, w.total/int64(w.pages))
	}

	t.Run("search", func(t *testing.T) {
		checkSearch(t, p, "papers/", c, v)
		p.check(t, "papers/ search")
		screenshot(t, p, "papers-filtered", "light")
		screenshot(t, p, "papers-filtered", "dark")
		screenshot(t, p, "papers-filtered", "light")
	})

	t.Run("export", func(t *testing.T) {
		checkExport(t, p, "papers/", c, v, pool)
		p.check(t, "papers/ export")
	})

	t.Run("bibtex download", func(t *testing.T) {
		// The Download button makes the entry's .bib in the page: its
		// file name and text must be the entry's key and BibTeX.
		var e *corpus.Entry
		var bib *corpus.BibEntry
		for i := range c.Papers {
			if bib = c.BibFor(c.Papers[i]); bib != nil {
				e = c.Papers[i]
				break
			}
		}
		if e == nil {
			t.Fatal("no entry of the corpus has BibTeX")
		}
		p.open(t, "papers/"+e.Key+"/")
		var got struct {
			Visible    bool
			Name, Text string
		}
		p.eval(t, `new Promise((resolve, reject) => {
		  const btn = document.querySelector("button.download[data-download]");
		  if (!btn) { reject(new Error("no download button")); return; }
		  const made = URL.createObjectURL;
		  URL.createObjectURL = blob => {
		    URL.createObjectURL = made;
		    blob.text().then(text => resolve({Visible: !btn.hidden, Name: btn.getAttribute("data-filename"), Text: text}));
		    return made.call(URL, blob);
		  };
		  btn.click();
		})`, &got)
		if want := strings.TrimSpace(bib.Raw) + "\n"; !got.Visible || got.Name != e.Key+".bib" || got.Text != want {
			t.Errorf("download button: visible %v, file %q, text %q; want visible, %q, %q", got.Visible, got.Name, got.Text, e.Key+".bib", want)
		}
		p.check(t, "bibtex download")
	})

	t.Run("heatmap click", func(t *testing.T) {
		// Click the fullest cell of reward × credit with the mouse: the
		// browser must land on a page listing exactly that cell's entries.
		x := c.CrossTab(v, "reward_type", "credit_granularity")
		bi, bj := 0, 0
		for i := range x.Cells {
			for j := range x.Cells[i] {
				if x.Cells[i][j].Count > x.Cells[bi][bj].Count {
					bi, bj = i, j
				}
			}
		}
		p.open(t, "coverage/")
		id := chartID("coverage", "reward_type", "credit_granularity")
		// The heatmap follows its table, below the first screen: a reader
		// scrolls to it, and that draws it.
		p.eval(t, fmt.Sprintf(`document.getElementById(%q).scrollIntoView({block: "center"}), true`, id), new(bool))
		p.waitFor(t, fmt.Sprintf(`document.querySelector("#%s canvas") !== null`, id))
		var at struct{ X, Y float64 }
		p.eval(t, fmt.Sprintf(`(() => {
		  const div = document.getElementById(%q);
		  div.scrollIntoView({block: "center"});
		  const [x, y] = echarts.getInstanceByDom(div).convertToPixel({seriesIndex: 0}, [%d, %d]);
		  const r = div.getBoundingClientRect();
		  return {X: r.left + x, Y: r.top + y};
		})()`, id, bj, bi), &at)
		if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `location.pathname.includes("/coverage/reward_type-credit_granularity/") && document.readyState === "complete"`)
		var got []string
		p.eval(t, `Array.from(document.querySelectorAll("main [data-key]")).map(e => e.getAttribute("data-key"))`, &got)
		slices.Sort(got)
		if want := sorted(x.Cells[bi][bj].Keys); !slices.Equal(got, want) {
			t.Errorf("clicking cell %s lists %v, want %v", x.Cells[bi][bj].Value, got, want)
		}
		p.check(t, "heatmap click")
	})

	t.Run("bar click", func(t *testing.T) {
		// Click the tallest bar of credit granularity on its field page:
		// the browser must land on the value's page with its entries.
		f := v.Field("credit_granularity")
		h := c.Histogram(v, f.Name)
		best := 0
		for i, cell := range h.Cells {
			if cell.Count > h.Cells[best].Count {
				best = i
			}
		}
		p.open(t, "taxonomy/credit_granularity/")
		id := chartID("field", f.Name)
		p.waitFor(t, fmt.Sprintf(`document.querySelector("#%s canvas") !== null`, id))
		var at struct{ X, Y float64 }
		p.eval(t, fmt.Sprintf(`(() => {
		  const div = document.getElementById(%q);
		  div.scrollIntoView({block: "center"});
		  const [x, y] = echarts.getInstanceByDom(div).convertToPixel({seriesIndex: 0}, [%d, %d]);
		  const r = div.getBoundingClientRect();
		  return {X: r.left + x, Y: r.top + y};
		})()`, id, best, h.Cells[best].Count/2), &at)
		if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `/\/taxonomy\/credit_granularity\/[^/]+\/$/.test(location.pathname) && document.readyState === "complete"`)
		var got []string
		p.eval(t, `Array.from(document.querySelectorAll("main [data-key]")).map(e => e.getAttribute("data-key"))`, &got)
		slices.Sort(got)
		if want := sorted(h.Cells[best].Keys); !slices.Equal(got, want) {
			t.Errorf("clicking the %s bar lists %v, want %v", h.Cells[best].Value, got, want)
		}
		p.check(t, "bar click")

		// The value's page links to the papers page filtered by it, which
		// must show the same entries.
		if err := chromedp.Do(p.ctx, chromedp.Click(`main a[href*="papers/?credit_granularity="]`, chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, `location.pathname.endsWith("/papers/") && `+searchReadyJS)
		if got, want := p.visibleKeys(t), sorted(h.Cells[best].Keys); !slices.Equal(got, want) {
			t.Errorf("the %s page's filter link shows %v, want %v", h.Cells[best].Value, got, want)
		}
		p.check(t, "term filter link")
	})

	t.Run("axe", func(t *testing.T) {
		entry := "papers/" + c.Papers[0].Key + "/"
		term := "taxonomy/credit_granularity/message/"
		for _, page := range []string{"", "papers/", entry, term, "coverage/"} {
			p.open(t, page)
			if page == "papers/" {
				p.waitFor(t, searchReadyJS)
			}
			checkAxe(t, p, "/"+page)
			p.check(t, "/"+page)
		}
	})

	t.Run("screenshots", func(t *testing.T) {
		for _, s := range []struct{ name, page string }{{"home", ""}, {"coverage", "coverage/"}} {
			p.open(t, s.page)
			drawAllCharts(t, p)
			screenshot(t, p, s.name, "light")
			if os.Getenv("MASRL_CHART_SHOTS") != "" {
				screenshotTiles(t, p, s.name+"-light", 12)
			}
			screenshot(t, p, s.name, "dark")
			if os.Getenv("MASRL_CHART_SHOTS") != "" {
				screenshotTiles(t, p, s.name+"-dark", 12)
			}
			checkCharts(t, p, s.name+" in dark mode", wantCharts(s.page+"index.html", v), shapes)
			screenshot(t, p, s.name, "light")
			p.check(t, s.name)
		}
	})
}
