package browsertest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/site/search"
)

// TestAgentsListSite builds testdata/lists/agents (a multi-valued,
// nested topic; code and project link columns; months): the Nu checker
// finds no error, every page loads without a problem and passes axe, and
// the topic facet keeps an entry with two topics under each.
func TestAgentsListSite(t *testing.T) {
	parallel(t)
	ck, err := corpus.Open(filepath.Join(repoRoot(t), "testdata", "lists", "agents", "corpus"), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := ck.Err(); err != nil {
		t.Fatalf("the agents list does not pass the check: %v", err)
	}
	dir := t.TempDir()
	if _, err := site.Build(ck, site.Options{Out: dir, ECharts: site.DefaultECharts}); err != nil {
		t.Fatal(err)
	}
	nuCheck(t, dir)
	b := startBrowser(t, dir)
	p := b.newPage(t)
	for _, page := range sitePages(t, dir) {
		p.open(t, page)
		p.check(t, page)
		checkAxe(t, p, page)
	}
	ix := search.Build(ck.Corpus, ck.Vocabulary, nil)
	p.open(t, "papers/")
	p.waitFor(t, searchReadyJS)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("#paper-search summary"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS(`input[name="topic"][value="memory"]`)), chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, `new URLSearchParams(location.search).get("topic") === "memory"`)
	want := sorted(ix.Match("", map[string][]string{"topic": {"memory"}}))
	if got := p.visibleKeys(t); !slices.Contains(want, "reflexion") || !slices.Equal(got, want) {
		t.Errorf("topic=memory leaves %v, want %v (reflexion among them)", got, want)
	}
	// A parent value stands for the values below it.
	p.open(t, "papers/?topic=multi-agent")
	p.waitFor(t, searchReadyJS)
	want = sorted(ix.Match("", map[string][]string{"topic": {"multi-agent"}}))
	if got := p.visibleKeys(t); !slices.Contains(want, "chatdev") || !slices.Equal(got, want) {
		t.Errorf("topic=multi-agent leaves %v, want %v (chatdev, under software, among them)", got, want)
	}
	p.check(t, "papers/ facets")
}
