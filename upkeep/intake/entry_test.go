package intake

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestParseTagsMultiple checks --tag repeated for a multi-valued field
// (testdata/lists/agents' topic): the values gather in canonical order,
// a repeat is dropped, an unknown value is refused with the nearest one,
// and a single-valued field still takes one value.
func TestParseTagsMultiple(t *testing.T) {
	v, err := corpus.ListVocabulary(filepath.Join("..", "..", "testdata", "lists", "agents", "corpus"))
	if err != nil || v == nil {
		t.Fatalf("vocabulary: %v", err)
	}
	tags, errs := ParseTags(v, []string{"topic=memory", "topic=reflection", "topic=memory", "kind=method"})
	if len(errs) > 0 || tags["topic"] != "reflection; memory" || tags["kind"] != "method" {
		t.Errorf("tags %v, errors %v; want topic=reflection; memory, kind=method", tags, errs)
	}
	_, errs = ParseTags(v, []string{"topic=memroy", "kind=method", "kind=benchmark"})
	if len(errs) != 2 || !strings.Contains(errs[0], `did you mean "memory"?`) || !strings.Contains(errs[1], "kind is already method") {
		t.Errorf("errors %q", errs)
	}
}

// TestEntryKey: a given key is kept when free, refused when not a slug or
// when it (or its BibTeX key) is taken; no key derives a free one.
func TestEntryKey(t *testing.T) {
	header := strings.Join(corpus.PaperColumns(), ",") + "\n"
	row := "orchestrarl,OrchestraRL: x,A,,2026,,arXiv,https://ok.example/o,survey,yes,NA,NA,NA,NA,core,x,yes,\n"
	c, err := corpus.ParsePapers("papers.csv", []byte(header+row))
	if err != nil {
		t.Fatal(err)
	}
	m := &Metadata{Title: "OrchestraRL: again", Year: 2026}
	if k, err := EntryKey(c, m, ""); err != nil || k == "orchestrarl" || !corpus.IsKey(k) {
		t.Errorf("derived key %q, %v; want a free slug", k, err)
	}
	if k, err := EntryKey(c, m, "fresh"); err != nil || k != "fresh" {
		t.Errorf("given key: %q, %v", k, err)
	}
	if _, err := EntryKey(c, m, "orchestrarl"); !errors.Is(err, ErrKeyTaken) {
		t.Errorf("taken key: %v, want ErrKeyTaken", err)
	}
	if _, err := EntryKey(c, m, "Bad Key"); err == nil || errors.Is(err, ErrKeyTaken) || !strings.Contains(err.Error(), `try "bad-key"`) {
		t.Errorf("bad key: %v", err)
	}
}
