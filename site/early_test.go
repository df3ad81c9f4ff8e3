package site

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestEarlyPages: the pages of Options.First reach Options.Early while
// the output still holds the last build, with the bytes the build then
// publishes; names the build does not make are left out, and a corpus
// the check refuses sends nothing.
func TestEarlyPages(t *testing.T) {
	dir := synthCorpus(t, 40)
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := readRows(t, papers)
	key, title := slices.Index(rows[0], "key"), slices.Index(rows[0], "title")
	write := func() { writeRows(t, papers, rows) }
	out := filepath.Join(t.TempDir(), "public")
	cache := NewCache()
	entry := "papers/" + rows[3][key] + "/index.html"
	first := []string{entry, "papers/index.html", "papers/no-such-entry/index.html", "search-index.json"}
	build := func(edit string) (map[string][]byte, int, error) {
		var got map[string][]byte
		calls := 0
		_, err := Build(openCorpus(t, dir, nil), Options{Out: out, Cache: cache, First: first,
			Early: func(pages map[string][]byte) {
				calls++
				got = pages
				if edit == "" {
					return
				}
				b, err := os.ReadFile(filepath.Join(out, entry))
				if err != nil {
					t.Errorf("reading the output during the build: %v", err)
				}
				if bytes.Contains(b, []byte(edit)) {
					t.Errorf("the output shows %q before the build published it", edit)
				}
			}})
		return got, calls, err
	}
	if _, _, err := build(""); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []string{"Shown early, first edit", "Shown early, second edit"} {
		rows[3][title] = edit
		write()
		got, calls, err := build(edit)
		if err != nil {
			t.Fatal(err)
		}
		if calls != 1 {
			t.Fatalf("Early called %d times, want once", calls)
		}
		var names []string
		for n := range got {
			names = append(names, n)
		}
		slices.Sort(names)
		want := []string{"papers/index.html", entry}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Fatalf("Early got %v, want %v", names, want)
		}
		for n, b := range got {
			published, err := os.ReadFile(filepath.Join(out, n))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, published) {
				t.Errorf("%s: Early's bytes differ from the published file", n)
			}
			if !bytes.Contains(b, []byte(strings.ReplaceAll(edit, "'", "&#39;"))) {
				t.Errorf("%s does not show the edit %q", n, edit)
			}
		}
	}
	// A duplicate key: the check fails, nothing is sent.
	rows[4][key] = rows[3][key]
	write()
	if _, calls, err := build(""); err == nil || calls != 0 {
		t.Fatalf("a refused corpus: error %v, Early called %d times; want an error and no call", err, calls)
	}
}
