package refresh

import (
	"errors"
	"path/filepath"
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

// TestEditReportAndRecord: the report has a line per proposal with its
// columns and sources, the diff names its sides, and Record puts the
// date into upkeep.yaml among the edit's files without writing it.
func TestEditReportAndRecord(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	key := ck.Corpus.Papers[0].Key
	ed, err := NewEdit(ck.Corpus, []Proposal{{Key: key, Pos: corpus.Pos{File: "papers.csv", Line: 2}, Set: map[string]string{"venue": "Refreshed Venue", "year": "2026"}, Sources: []string{"arXiv x journal_ref", "Crossref y"}}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	ed.WriteReport(&b)
	if want := "papers.csv:2: " + key + ": year, venue (arXiv x journal_ref; Crossref y)\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("report %q, want it to start with %q", b.String(), want)
	}
	if d := ed.Diff(ck, true); d.Old != "before" || d.New != "after refresh" || len(d.Changed) != 1 {
		t.Errorf("diff %q → %q with %d changed, want before → after refresh with 1", d.Old, d.New, len(d.Changed))
	}
	if err := ed.Record("2026-05-06"); err != nil {
		t.Fatal(err)
	}
	if got := string(ed.Files[corpus.UpkeepFile]); !strings.Contains(got, "refreshed: \"2026-05-06\"") && !strings.Contains(got, "refreshed: 2026-05-06") {
		t.Errorf("upkeep.yaml %q, want the refresh date", got)
	}
	if _, ok := corpustest.ReadTree(t, dir)[corpus.UpkeepFile]; ok {
		t.Error("Record wrote upkeep.yaml")
	}
}

// TestEditWriteProposedAndWritten: masrl refresh prints the report and
// the diff of the proposed edit on its output, a papers.bib it could not
// update on its log, and, once written, each file with its count.
func TestEditWriteProposedAndWritten(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	key := ck.Corpus.Papers[0].Key
	ed, err := NewEdit(ck.Corpus, []Proposal{{Key: key, Pos: corpus.Pos{File: "papers.csv", Line: 2}, Set: map[string]string{"venue": "Refreshed Venue"}, Sources: []string{"Crossref y"}}})
	if err != nil {
		t.Fatal(err)
	}
	ed.BibErr = errors.New("line 3: unterminated entry")
	var out, log strings.Builder
	ed.WriteProposed(&out, &log, ck, true)
	var report strings.Builder
	ed.WriteReport(&report)
	d := ed.Diff(ck, true)
	if want := report.String() + "\n" + d.Markdown(len(ed.Before.Papers), len(ed.After.Papers)); out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	if want := "masrl refresh: " + filepath.Join(dir, corpus.BibFile) + " is not updated: line 3: unterminated entry\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	out.Reset()
	ed.WriteWritten(&out)
	want := "\nwrote " + filepath.Join(dir, corpus.PapersFile) + ": 1 entry\n"
	if len(ed.BibChanged) > 0 {
		want += "wrote " + filepath.Join(dir, corpus.BibFile) + ": 1 entry\n"
	}
	if out.String() != want {
		t.Errorf("written %q, want %q", out.String(), want)
	}
}
