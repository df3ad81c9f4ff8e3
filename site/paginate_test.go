package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"

	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
)

// largeEntries is the size of the synthetic corpus TestLargeCorpus builds:
// large enough that the papers list, the term pages of common values and
// the big coverage cells all span several pages.
const largeEntries = 10000

var (
	dataKeyPattern = regexp.MustCompile(`<li class="entry" id="entry-[^"]*" data-key="([^"]*)"`)
	nextPattern    = regexp.MustCompile(`<a rel="next" href="([^"]*)">`)
)

// TestLargeCorpus builds a synthetic corpus of largeEntries entries
// (what synth corpus -entries 10000 -seed 1 writes, made in-process
// rather than by go run ./cmd/synth, which linked cmd/synth in every
// test run) and checks that no HTML page is over 1 MB, and that a reader
// without JavaScript reaches every entry by following the papers list's
// "Next page" links from papers/.
func TestLargeCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site of 10,000 entries; not in -short")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "corpus")
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), src, synth.CorpusOptions{Entries: largeEntries, Exclusions: 32, Seed: 1}); err != nil {
		t.Fatalf("synth: %v", err)
	}
	out := filepath.Join(dir, "public")
	if _, err := Build(openCorpus(t, src, nil), Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	pages := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Size() > limit {
			t.Errorf("%s is %d bytes, over 1 MB", p, fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < largeEntries {
		t.Fatalf("only %d pages for %d entries", pages, largeEntries)
	}

	c, err := corpus.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	page, hops := filepath.Join(out, "papers", "index.html"), 0
	for {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range dataKeyPattern.FindAllSubmatch(b, -1) {
			seen = append(seen, string(m[1]))
		}
		m := nextPattern.FindSubmatch(b)
		if m == nil {
			break
		}
		if hops++; hops > largeEntries {
			t.Fatal("the papers list's next links loop")
		}
		page = filepath.Join(filepath.Dir(page), filepath.FromSlash(string(m[1])), "index.html")
	}
	if want := (largeEntries + PapersPerPage - 1) / PapersPerPage; hops+1 != want {
		t.Errorf("the papers list has %d pages, want %d of %d entries", hops+1, want, PapersPerPage)
	}
	var keys []string
	for i := range c.Papers {
		keys = append(keys, c.Papers[i].Key)
	}
	slices.Sort(keys)
	slices.Sort(seen)
	if !slices.Equal(seen, keys) {
		t.Errorf("following the papers list's pages reaches %d entries (%d distinct), want all %d", len(seen), len(slices.Compact(slices.Clone(seen))), len(keys))
	}
}

// TestPagerWindow: a list of many pages links the first, the last and
// the pages near the current one, with one gap for each run left out, so
// that the pager of 200 pages stays a line on a phone.
func TestPagerWindow(t *testing.T) {
	label := func(p *Pager) string {
		var s []string
		for _, l := range p.Pages {
			switch {
			case l.Gap:
				s = append(s, "…")
			case l.Current:
				s = append(s, "["+l.Label+"]")
			default:
				s = append(s, l.Label)
			}
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		n, count int
		want     string
	}{
		{1, 1, "[1]"},
		{1, 5, "[1] 2 3 … 5"},
		{3, 5, "1 2 [3] 4 5"},
		{1, 200, "[1] 2 3 … 200"},
		{100, 200, "1 … 98 99 [100] 101 102 … 200"},
		{200, 200, "1 … 198 199 [200]"},
		{4, 200, "1 2 3 [4] 5 6 … 200"},
	} {
		p := pager("papers/", "../", tc.n, tc.count)
		if got := label(p); got != tc.want {
			t.Errorf("page %d of %d: %s, want %s", tc.n, tc.count, got, tc.want)
		}
	}
	if p := pager("papers/", "../", 100, 200); p.Prev != "../papers/page/99/" || p.Next != "../papers/page/101/" || p.Pages[0].Href != "../papers/" {
		t.Errorf("page 100: prev %s, next %s, first %s", p.Prev, p.Next, p.Pages[0].Href)
	}
}
