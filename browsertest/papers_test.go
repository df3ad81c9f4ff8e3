package browsertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site"
)

// papersEntries is the size of the synthetic corpus the papers page is
// held to: issue 35's 10,000 entries.
const papersEntries = 10000

// phoneItemHeight bounds one entry of the papers list on a 390×844 phone,
// in CSS pixels, and phoneFrameHeight the rest of a page of it (header,
// introduction, categories, search form, pager, footer). A page's height
// is then bounded by its page size, whatever the corpus' size. Measured
// on the synthetic corpus: entries of 250 to 320 px (a four-line title,
// the one-liner, the links and three lines of tags), a frame of 1,100.
const (
	phoneItemHeight  = 360
	phoneFrameHeight = 2000
)

// TestPapersPageBounded builds a site of 10,000 synthetic entries and
// holds every sampled page of the papers list to a bounded height on a
// 390×844 phone (site.PapersPerPage items, phoneItemHeight each, and the
// frame), and its search to the whole corpus: an entry from the last page
// is found from the first, and the query survives a reload in the URL.
func TestPapersPageBounded(t *testing.T) {
	parallel(t)
	_, err := exec.LookPath(chromiumPath())
	need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
	dir := t.TempDir()
	corpusDir := filepath.Join(dir, "corpus")
	writeSynthCorpus(t, papersEntries, corpusDir)
	ck, err := corpus.Open(corpusDir, nil, data.SurveyProfile)
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "public")
	if _, err := site.Build(ck, site.Options{Out: pub}); err != nil {
		t.Fatalf("build: %v", err)
	}
	pages := (papersEntries + site.PapersPerPage - 1) / site.PapersPerPage
	if _, err := os.Stat(filepath.Join(pub, "papers", "page", strconv.Itoa(pages), "index.html")); err != nil {
		t.Fatalf("want %d pages of %d entries: %v", pages, site.PapersPerPage, err)
	}
	b := startBrowser(t, pub)
	p := b.newPage(t)
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	bound := phoneFrameHeight + site.PapersPerPage*phoneItemHeight
	for _, n := range []int{1, 2, pages / 2, pages} {
		path := "papers/"
		if n > 1 {
			path = fmt.Sprintf("papers/page/%d/", n)
		}
		p.open(t, path)
		var got struct {
			Height, Items, OneLiners, Links, MaxItem, List int
			Parts                                          string
		}
		p.eval(t, `({Height: document.documentElement.scrollHeight,
  MaxItem: Math.round(Math.max(...[...document.querySelectorAll("#paper-list li.entry")].map(e => e.getBoundingClientRect().height))),
  List: Math.round(document.getElementById("paper-list").getBoundingClientRect().height), Parts: [...document.querySelector("#paper-list li.entry").children].map(c => c.className + ":" + Math.round(c.getBoundingClientRect().height)).join(" "),
  Items: document.querySelectorAll("#paper-list li.entry").length,
  OneLiners: document.querySelectorAll("#paper-list li.entry .one-liner").length,
  Links: document.querySelectorAll("#paper-list li.entry .entry-links a").length})`, &got)
		t.Logf("%s on 390×844: %d px (the list %d, its tallest entry %d; the first: %s), %d entries, %d one-liners, %d links", path, got.Height, got.List, got.MaxItem, got.Parts, got.Items, got.OneLiners, got.Links)
		if got.Items == 0 || got.Items > site.PapersPerPage {
			t.Errorf("%s: %d entries, want 1 to %d", path, got.Items, site.PapersPerPage)
		}
		if got.Height > bound {
			t.Errorf("%s: %d px tall on a 390×844 phone, want at most %d (%d entries × %d px + %d)", path, got.Height, bound, site.PapersPerPage, phoneItemHeight, phoneFrameHeight)
		}
		if got.OneLiners == 0 || got.Links == 0 {
			t.Errorf("%s: %d one-liners and %d links shown; want both", path, got.OneLiners, got.Links)
		}
		checkAxe(t, p, path+" on 390×844")
		p.check(t, path)
	}

	// Search from the first page finds an entry of the last one.
	p.open(t, fmt.Sprintf("papers/page/%d/", pages))
	var last struct{ Key, Title string }
	p.eval(t, `(() => { const li = [...document.querySelectorAll("#paper-list li.entry")].pop();
  return {Key: li.dataset.key, Title: li.querySelector(".entry-title a").textContent}; })()`, &last)
	p.open(t, "papers/")
	p.waitFor(t, searchReadyJS)
	p.eval(t, fmt.Sprintf(keystrokeJS, last.Title), new(float64))
	if keys := p.visibleKeys(t); !contains(keys, last.Key) {
		t.Errorf("searching %q on papers/ shows %d entries without %s, the last page's", last.Title, len(keys), last.Key)
	}
	var height int
	p.eval(t, `document.documentElement.scrollHeight`, &height)
	if height > bound {
		t.Errorf("papers/ with a search: %d px tall, want at most %d", height, bound)
	}
	// A facet that leaves thousands of entries draws a page of them.
	p.eval(t, fmt.Sprintf(keystrokeJS, ""), new(float64))
	p.eval(t, `(document.querySelector(".facet input").click(), true)`, new(bool))
	p.waitFor(t, `!document.getElementById("search-results").hidden`)
	var facet struct{ Height, Results int }
	p.eval(t, `({Height: document.documentElement.scrollHeight, Results: document.querySelectorAll("#search-results li").length})`, &facet)
	t.Logf("papers/ with a facet on 390×844: %d px, %d results drawn", facet.Height, facet.Results)
	if facet.Results == 0 || facet.Results > site.PapersPerPage || facet.Height > bound {
		t.Errorf("papers/ with a facet: %d results drawn in %d px; want 1 to %d in at most %d px", facet.Results, facet.Height, site.PapersPerPage, bound)
	}
	p.eval(t, `(document.querySelector(".facet input").click(), true)`, new(bool))
	p.eval(t, fmt.Sprintf(keystrokeJS, last.Title), new(float64))

	// The query is in the URL: a reload shows the same result.
	var loc string
	p.eval(t, `location.search`, &loc)
	if !strings.Contains(loc, "q=") {
		t.Errorf("the query is not in the URL: %q", loc)
	}
	p.open(t, "papers/"+loc)
	p.waitFor(t, searchReadyJS)
	p.waitFor(t, `!document.getElementById("search-results").hidden`)
	if keys := p.visibleKeys(t); !contains(keys, last.Key) {
		t.Errorf("after a reload of %s: %d entries without %s", loc, len(keys), last.Key)
	}
	p.check(t, "papers/ search")
	if !testing.Short() {
		checkPapersLighthouse(t, pub, pages)
	}
}

// checkPapersLighthouse runs Lighthouse on the first, a middle and the
// last page of the 10,000-entry papers list served compressed: the
// accessibility, best-practices and SEO scores must be 100, and the
// performance score, which moves with the machine's load, is logged only
// (BENCHMARKS.md records it).
func checkPapersLighthouse(t *testing.T, pub string, pages int) {
	cli := filepath.Join(repoRoot(t), "node_modules", "lighthouse", "cli", "index.js")
	_, err := os.Stat(cli)
	need(t, err == nil, "lighthouse not installed: %v (run make node_modules)", err)
	_, err = exec.LookPath("node")
	need(t, err == nil, "node not found: %v", err)
	base := gzipServer(t, pub)
	paths := []string{"papers/", fmt.Sprintf("papers/page/%d/", pages/2), fmt.Sprintf("papers/page/%d/", pages)}
	urls := make([]string, len(paths))
	for i, path := range paths {
		urls[i] = base + path
	}
	for i, rep := range runLighthouse(t, urls...) {
		path := paths[i]
		var row []string
		for _, cat := range lighthouseFull {
			got := rep.score(cat)
			row = append(row, fmt.Sprintf("%s %.0f", cat, 100*got))
			if got < 1 {
				t.Errorf("%s of %d entries: %s %.0f, want 100; failing audits:\n\t%s", path, papersEntries, cat, 100*got, strings.Join(rep.failing(cat), "\n\t"))
			}
		}
		t.Logf("Lighthouse %s of %d entries: %s (performance %.0f, not asserted)", path, papersEntries, strings.Join(row, ", "), 100*rep.score("performance"))
	}
}

func contains(xs []string, x string) bool {
	return slices.Contains(xs, x)
}
