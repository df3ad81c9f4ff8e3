package refresh

import (
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestNewEdit: the edit holds papers.csv with the proposal applied, the
// rows before and after it, and writes nothing.
func TestNewEdit(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := c.Papers[0].Key
	ed, err := NewEdit(c, []Proposal{{Key: key, Set: map[string]string{"venue": "Refreshed Venue"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ed.Files[corpus.PapersFile]), "Refreshed Venue") {
		t.Errorf("papers.csv without the new venue")
	}
	if ed.Before.Entry(key).Venue == "Refreshed Venue" || ed.After.Entry(key).Venue != "Refreshed Venue" {
		t.Errorf("venue before %q, after %q", ed.Before.Entry(key).Venue, ed.After.Entry(key).Venue)
	}
	if after := corpustest.ReadTree(t, dir)[corpus.PapersFile]; strings.Contains(after, "Refreshed Venue") {
		t.Error("NewEdit wrote papers.csv")
	}
}
