package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/site/search"
)

// TestNewSinceSurvey builds the tiny corpus with a claims file that names
// a pool of two of its four entries: the other two are marked as new in
// the lists and on their pages, the papers page gets a facet for it, the
// home page counts both groups, and the claims count the pool only.
func TestNewSinceSurvey(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	claims := filepath.Join(dir, "data", "claims.yaml")
	b, err := os.ReadFile(claims)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(claims, append([]byte("pool: survey-pool.yaml\n"), b...), 0o644)
	os.WriteFile(filepath.Join(dir, "data", "survey-pool.yaml"), []byte("paper: arXiv:0000.00000v1\nretained: [alpha, gamma]\nexcluded: []\n"), 0o644)
	files := mustLoad(t, openCorpus(t, dir, data.Dir(filepath.Join(dir, "data"))), Options{})

	if p := page(t, files, "index.html"); !strings.Contains(p, "<strong>2</strong> in the survey + <strong>2</strong> added since") {
		t.Error("home page: no \"2 in the survey + 2 added since\"")
	}
	papers := page(t, files, "papers/index.html")
	for key, isNew := range map[string]bool{"alpha": false, "beta": true, "gamma": false, "delta": true} {
		_, item, _ := strings.Cut(papers, `id="entry-`+key+`"`)
		item, _, _ = strings.Cut(item, "</li>")
		if got := strings.Contains(item, `class="new-mark"`); got != isNew {
			t.Errorf("papers: %s marked new = %v, want %v", key, got, isNew)
		}
		if got := strings.Contains(page(t, files, "papers/"+key+"/index.html"), `class="new-mark"`); got != isNew {
			t.Errorf("papers/%s: marked new = %v, want %v", key, got, isNew)
		}
	}

	raw, ok := files.Get(SearchIndexFile)
	if !ok {
		t.Fatal("no search index")
	}
	var ix search.Index
	if err := json.Unmarshal(raw, &ix); err != nil {
		t.Fatal(err)
	}
	last := ix.Fields[len(ix.Fields)-1]
	if last.Name != "since" || len(last.Values) != 2 {
		t.Fatalf("last facet %+v, want since with survey and added", last)
	}
	if got := strings.Join(ix.Match("", map[string][]string{"since": {"added"}}), ","); got != "beta,delta" {
		t.Errorf("facet since=added leaves %s, want beta,delta", got)
	}

	// Without a pool in the claims file: no mark, no facet, no split.
	plain := mustLoad(t, openCorpus(t, corpusFromTxtar(t, "tiny.txtar"), data.Dir(filepath.Join(corpusFromTxtar(t, "tiny.txtar"), "data"))), Options{})
	if strings.Contains(page(t, plain, "papers/index.html"), "new-mark") || strings.Contains(page(t, plain, "index.html"), "added since") {
		t.Error("without a pool, entries are marked new")
	}
}
