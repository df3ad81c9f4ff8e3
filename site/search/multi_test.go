package search

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestMatchMultiple checks the facets of a multi-valued field
// (testdata/lists/agents' topic): a value matches an entry that has it
// among others, and the index says the field is multi-valued and carries
// the link columns.
func TestMatchMultiple(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "lists", "agents", "corpus")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.ListVocabulary(dir)
	if err != nil || v == nil {
		t.Fatalf("vocabulary: %v", err)
	}
	ix := Build(c, v, nil)
	got := ix.Match("", map[string][]string{"topic": {"memory"}})
	slices.Sort(got)
	if want := []string{"generative-agents", "reflexion", "voyager"}; !slices.Equal(got, want) {
		t.Errorf("topic=memory matches %v, want %v", got, want)
	}
	// multi-agent stands for role-play and software below it.
	got = ix.Match("", map[string][]string{"topic": {"multi-agent"}})
	slices.Sort(got)
	if want := []string{"autogen", "camel", "chatdev", "metagpt", "swe-agent"}; !slices.Equal(got, want) {
		t.Errorf("topic=multi-agent matches %v, want %v", got, want)
	}
	if !ix.Fields[0].Multiple || len(ix.Links) != 2 || ix.Links[0].Name != "code" {
		t.Errorf("fields[0].multiple %v, links %v", ix.Fields[0].Multiple, ix.Links)
	}
}

// TestBibLinkFields checks that the BibTeX download of an entry with link
// columns carries them as fields.
func TestBibLinkFields(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "lists", "agents", "corpus")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.ListVocabulary(dir)
	if err != nil || v == nil {
		t.Fatalf("vocabulary: %v", err)
	}
	b, err := Bib(c, v.Links...)
	if err != nil {
		t.Fatal(err)
	}
	want := `archiveprefix = {arXiv},\n  code = {https://github.com/web-arena-x/webarena},\n  project = {https://webarena.dev/},\n}`
	if !strings.Contains(string(b), want) {
		t.Errorf("search-bib.json lacks %s:\n%s", want, b)
	}
}
