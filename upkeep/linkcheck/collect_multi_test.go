package linkcheck

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestCollectLinkColumns checks that a list's link columns (testdata/
// lists/agents' code and project) are collected with the url column,
// each at its own column.
func TestCollectLinkColumns(t *testing.T) {
	c, err := corpus.Load(filepath.Join("..", "..", "testdata", "lists", "agents", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	links, err := Collect(c, "code", "project")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(links, func(l Link) bool { return l.URL == "https://webarena.dev/" })
	if i < 0 {
		t.Fatalf("no project link among %d", len(links))
	}
	e := c.Papers[slices.IndexFunc(c.Papers, func(e *corpus.Entry) bool { return e.Key == "webarena" })]
	if links[i].Pos != e.Pos("project") {
		t.Errorf("project link at %v, want %v", links[i].Pos, e.Pos("project"))
	}
	without, _ := Collect(c)
	if len(links) <= len(without) {
		t.Errorf("%d links with the link columns, %d without", len(links), len(without))
	}
}
