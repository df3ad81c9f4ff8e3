package site

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
)

// withPool writes a claims file naming a pool of the given retained keys
// into the tiny corpus' data directory and returns the corpus directory.
func withPool(t *testing.T, keys ...string) string {
	t.Helper()
	dir := corpusFromTxtar(t, "tiny.txtar")
	claims := filepath.Join(dir, "data", "claims.yaml")
	b, err := os.ReadFile(claims)
	if err != nil {
		t.Fatal(err)
	}
	pool := fmt.Sprintf("paper: arXiv:0000.00000v1\nretained: [%s]\nexcluded: []\n", strings.Join(keys, ", "))
	if err := os.WriteFile(claims, append([]byte("pool: survey-pool.yaml\n"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "survey-pool.yaml"), []byte(pool), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var cellLinkPattern = regexp.MustCompile(`<a href="([^"]+)" aria-label="(\d+) entr`)

// tableSection returns the section of a coverage page that holds the table
// with the given ID.
func tableSection(t *testing.T, body, id string) string {
	t.Helper()
	_, s, ok := strings.Cut(body, `<section aria-labelledby="`+id+`">`)
	if !ok {
		t.Fatalf("no table %s", id)
	}
	s, _, _ = strings.Cut(s, "</section>")
	return s
}

// TestCoverageViews builds the tiny corpus with a pool that leaves out
// delta, an entry "added since the survey": coverage/ counts the whole
// list, coverage/survey/ the pool, each table and cell as the corpus'
// own cross-tabs of the corpus and of its restriction to the pool count
// them, each with its own heatmap and cell pages, and the two pages link
// each other.
func TestCoverageViews(t *testing.T) {
	dir := withPool(t, "alpha", "beta", "gamma")
	files := mustLoad(t, openCorpus(t, dir, data.Dir(filepath.Join(dir, "data"))), Options{ECharts: DefaultECharts})
	c, v := load(t, dir)
	pool, err := corpus.ParsePool("pool", []byte("paper: p\nretained: [alpha, beta, gamma]\nexcluded: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if added := pool.Added(c); !slices.Equal(added, []string{"delta"}) {
		t.Fatalf("fixture: added since the pool %v, want [delta]", added)
	}
	views := []struct {
		dir, chart string
		c          *corpus.Corpus
		other      string
	}{
		{"coverage/", "chart-coverage-", c, "coverage/survey/"},
		{"coverage/survey/", "chart-coverage-survey-", pool.Restrict(c), "coverage/"},
	}
	deltaCounted := 0
	for _, view := range views {
		body := page(t, files, view.dir+"index.html")
		root := strings.Repeat("../", strings.Count(view.dir, "/"))
		if !strings.Contains(body, `<a href="`+root+view.other+`">`) {
			t.Errorf("%s: no link to the other view %s", view.dir, view.other)
		}
		want := fmt.Sprintf("all %d entries, the survey's %d and the %d added since", len(c.Papers), len(pool.Restrict(c).Papers), len(pool.Added(c)))
		if view.c != c {
			want = fmt.Sprintf("the %d entries of arXiv:0000.00000v1", len(view.c.Papers))
		}
		if !strings.Contains(body, want) {
			t.Errorf("%s: does not say it counts %q", view.dir, want)
		}
		for _, rc := range v.CrossTabs {
			id := rc[0] + "-" + rc[1]
			x := view.c.CrossTab(v, rc[0], rc[1])
			sec := tableSection(t, body, id)
			if !strings.Contains(sec, fmt.Sprintf("), %d entries", x.Total)) {
				t.Errorf("%s#%s: caption does not count %d entries", view.dir, id, x.Total)
			}
			if chartID := view.chart + strings.ReplaceAll(id, "_", "-"); strings.Count(sec, `id="`+chartID+`"`) != 1 {
				t.Errorf("%s#%s: no heatmap %s", view.dir, id, chartID)
			}
			// The table's links, in row-major order, carry the cross-tab's
			// non-empty cells.
			var wantCounts []int
			for i := range x.RowValues {
				for j := range x.ColValues {
					if n := x.Cells[i][j].Count; n > 0 {
						wantCounts = append(wantCounts, n)
					}
				}
			}
			links := cellLinkPattern.FindAllStringSubmatch(sec, -1)
			var gotCounts []int
			for _, l := range links {
				n, _ := strconv.Atoi(l[2])
				gotCounts = append(gotCounts, n)
			}
			if !slices.Equal(gotCounts, wantCounts) {
				t.Errorf("%s#%s: cells %v, want %v", view.dir, id, gotCounts, wantCounts)
				continue
			}
			// Each cell page lists the cell's entries, and lives under the
			// view's directory.
			k := 0
			for i := range x.RowValues {
				for j := range x.ColValues {
					cell := x.Cells[i][j]
					if cell.Count == 0 {
						continue
					}
					href := links[k][1]
					k++
					name := filepath.ToSlash(filepath.Join(view.dir, href, "index.html"))
					if !strings.HasPrefix(name, view.dir+id+"/") {
						t.Errorf("%s: cell link %s leaves the view's directory", view.dir, href)
						continue
					}
					cp := page(t, files, name)
					var keys []string
					for _, m := range regexp.MustCompile(`<li class="entry-brief" data-key="([^"]+)"`).FindAllStringSubmatch(cp, -1) {
						keys = append(keys, m[1])
					}
					slices.Sort(keys)
					wantKeys := slices.Sorted(slices.Values(cell.Keys))
					if !slices.Equal(keys, wantKeys) {
						t.Errorf("%s lists %v, want %v", name, keys, wantKeys)
					}
					if slices.Contains(keys, "delta") {
						deltaCounted++
						if view.c != c {
							t.Errorf("%s: the survey's pool lists delta, added since", name)
						}
					}
				}
			}
		}
		// Charts of one view only: IDs stay unique across the two pages.
		if view.c == c && strings.Contains(body, `chart-coverage-survey-`) {
			t.Errorf("%s draws the survey's heatmaps", view.dir)
		}
		if view.c != c && strings.Contains(body, `id="chart-coverage-reward-type`) {
			t.Errorf("%s draws the whole list's heatmaps", view.dir)
		}
	}
	if deltaCounted != len(v.CrossTabs) {
		t.Errorf("the whole list counts delta in %d tables, want every one of %d", deltaCounted, len(v.CrossTabs))
	}
	checkLinks(t, files, "/")

	// A pool equal to the list: both pages, with a note that they agree.
	same := withPool(t, "alpha", "beta", "gamma", "delta")
	files = mustLoad(t, openCorpus(t, same, data.Dir(filepath.Join(same, "data"))), Options{})
	if !strings.Contains(page(t, files, "coverage/survey/index.html"), "both views count the same entries") {
		t.Error("a pool equal to the list: no note that both views agree")
	}

	// Without a pool: one page, no link to a survey view.
	plainDir := corpusFromTxtar(t, "tiny.txtar")
	plain := mustLoad(t, openCorpus(t, plainDir, data.Dir(filepath.Join(plainDir, "data"))), Options{})
	if _, ok := plain.Get("coverage/survey/index.html"); ok {
		t.Error("without a pool, a survey coverage page")
	}
	if strings.Contains(page(t, plain, "coverage/index.html"), `coverage/survey/`) {
		t.Error("without a pool, the coverage page links a survey view")
	}
}
