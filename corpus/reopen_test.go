package corpus_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
)

// TestReopenMatchesOpen holds the incremental check to the full one, as
// TestIncrementalMatchesFull (site) holds the pages: a seeded series of
// the edits a maintainer makes (a tag changed or misspelt, a title made
// a duplicate, a row deleted or added or duplicated, a value broken, a
// title over two lines, which moves every row after it, papers.bib and
// excluded.csv edited), each reopened from the corpus before
// (corpus.Reopen, which reuses the unchanged rows and their findings),
// must give exactly the findings, positions included, of the same files
// opened afresh; and the unchanged rows' findings must have been reused.
func TestReopenMatchesOpen(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: 300, Exclusions: 20, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	excludedRows := corpustest.ReadCSV(t, filepath.Join(dir, corpus.ExcludedFile))
	writeCSV(t, papers, rows)
	bib, err := os.ReadFile(filepath.Join(dir, corpus.BibFile))
	if err != nil {
		t.Fatal(err)
	}
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	col := func(name string) int {
		i := slices.Index(rows[0], name)
		if i < 0 {
			t.Fatalf("no column %s", name)
		}
		return i
	}
	key, title, year, url, category := col("key"), col("title"), col("year"), col("url"), col("category")
	rnd := rand.New(rand.NewPCG(39, 1))
	// bibEdited: an edit wrote papers.bib; the others tell Reopen it is
	// unchanged (corpus.Known), as masrl serve's watcher does.
	bibEdited := false
	row := func() int { return 1 + rnd.IntN(len(rows)-1) }
	edits := []struct {
		name string
		do   func()
	}{
		{"retitle", func() { rows[row()][title] = fmt.Sprintf("A new title %d", rnd.IntN(1000)) }},
		{"duplicate title", func() { rows[row()][title] = rows[row()][title] }},
		{"duplicate key", func() { rows[row()][key] = rows[row()][key] }},
		{"bad key", func() { rows[row()][key] = "Bad Key" }},
		{"retag", func() { rows[row()][category] = rows[row()][category] }},
		{"misspelt tag", func() { rows[row()][category] = "no-such-category" }},
		{"bad year", func() { rows[row()][year] = "19x9" }},
		{"bad url", func() { rows[row()][url] = "ftp://example.org/" }},
		{"empty title", func() { rows[row()][title] = "" }},
		{"two-line title", func() { rows[row()][title] += "\nsecond line" }},
		{"delete row", func() {
			if len(rows) > 3 {
				i := row()
				rows = slices.Delete(rows, i, i+1)
			}
		}},
		{"add row", func() {
			r := slices.Clone(rows[row()])
			r[key] = fmt.Sprintf("added-%d", rnd.IntN(100000))
			r[title] = fmt.Sprintf("Added paper %d", rnd.IntN(100000))
			i := row()
			rows = slices.Insert(rows, i, r)
		}},
		{"copy row", func() { rows = slices.Insert(rows, row(), slices.Clone(rows[row()])) }},
		{"bib entry dropped", func() {
			i := bytes.Index(bib[1:], []byte("\n@"))
			if i > 0 {
				bib = bib[i+2:]
			}
			writeFile(t, filepath.Join(dir, corpus.BibFile), bib)
			bibEdited = true
		}},
		{"excluded like a row", func() {
			x := 1 + rnd.IntN(len(excludedRows)-1)
			excludedRows[x][slices.Index(excludedRows[0], "screening_label")] = rows[row()][title]
			writeCSV(t, filepath.Join(dir, corpus.ExcludedFile), excludedRows)
		}},
	}
	prev, err := corpus.Reopen(nil, dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for n := range 120 {
		e := edits[rnd.IntN(len(edits))]
		bibEdited = false
		e.do()
		writeCSV(t, papers, rows)
		inc, err := corpus.ReopenKnowing(prev, dir, nil, "", opt, corpus.Known{BibUnchanged: !bibEdited})
		if err != nil {
			t.Fatalf("edit %d (%s): %v", n, e.name, err)
		}
		full, err := corpus.OpenWith(dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		got, want := inc.Diagnostics(), full.Diagnostics()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("edit %d (%s): the incremental check differs from a full one:\n%s", n, e.name, diagDiff(got, want))
		}
		reused += corpus.ReusedRows(inc)
		prev = inc
	}
	if reused < 120*len(rows)/2 {
		t.Errorf("%d rows' findings reused over 120 edits of about %d rows: the check is not incremental", reused, len(rows))
	}
}

func diagDiff(got, want corpus.Diagnostics) string {
	var b strings.Builder
	for _, d := range got {
		if !slices.ContainsFunc(want, func(w corpus.Diagnostic) bool { return reflect.DeepEqual(w, d) }) {
			fmt.Fprintf(&b, "+ %s\n", d)
		}
	}
	for _, d := range want {
		if !slices.ContainsFunc(got, func(g corpus.Diagnostic) bool { return reflect.DeepEqual(g, d) }) {
			fmt.Fprintf(&b, "- %s\n", d)
		}
	}
	if b.Len() == 0 {
		return "(the same findings in another order)"
	}
	return b.String()
}

func writeCSV(t *testing.T, name string, rows [][]string) {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	writeFile(t, name, b.Bytes())
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReopenSharesUnchangedRows holds Reopen to sharing the rows an edit
// did not touch with the corpus before, not copying them, and the
// entries of an unchanged papers.bib: at 100,000 entries copying every
// row on every edit was a third of reopening, the BibTeX a fifth. The
// edited row, and the rows after a title that took a second line (they
// moved down), are new rows; the corpus before still reads its own rows
// as they were, since nothing may write into a row its views still read.
func TestReopenSharesUnchangedRows(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: 50, Exclusions: 5, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	writeCSV(t, papers, rows)
	title := slices.Index(rows[0], "title")
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	reopen := func(prev *corpus.Checked) *corpus.Checked {
		t.Helper()
		ck, err := corpus.ReopenKnowing(prev, dir, nil, "", opt, corpus.Known{BibUnchanged: true})
		if err != nil {
			t.Fatal(err)
		}
		return ck
	}
	first := reopen(nil)
	oldTitle := first.Corpus.Papers[20].Title
	rows[21][title] = "A title edited in place" // row 20: rows[0] is the header
	writeCSV(t, papers, rows)
	second := reopen(first)
	a, b := first.Corpus.Papers, second.Corpus.Papers
	for i := range b {
		if shared := a[i] == b[i]; shared != (i != 20) {
			t.Errorf("one title edited: row %d shared with the corpus before = %v, want %v", i, shared, i != 20)
		}
	}
	if len(first.Corpus.Bib) == 0 || &second.Corpus.Bib[0] != &first.Corpus.Bib[0] {
		t.Error("papers.bib known unchanged: its entries are not the corpus before's")
	}
	if a[20].Title != oldTitle || b[20].Title != "A title edited in place" {
		t.Errorf("the edited row reads %q before and %q after, want %q and the new title", a[20].Title, b[20].Title, oldTitle)
	}

	rows[11][title] += "\nsecond line" // row 10
	writeCSV(t, papers, rows)
	line, keyLine := b[30].Line, b[30].Pos("key").Line
	third := reopen(second)
	c := third.Corpus.Papers
	for i := range c {
		if shared := b[i] == c[i]; shared != (i < 10) {
			t.Errorf("a title over two lines: row %d shared = %v, want %v (the rows after it moved down)", i, shared, i < 10)
		}
		if i > 10 && (c[i].Line != b[i].Line+1 || c[i].Pos("key").Line != b[i].Pos("key").Line+1) {
			t.Errorf("row %d after the two-line title: line %d (key at %d), want one more than the %d (%d) before it", i, c[i].Line, c[i].Pos("key").Line, b[i].Line, b[i].Pos("key").Line)
		}
	}
	// The corpus before still reads its rows where they were.
	if b[30].Line != line || b[30].Pos("key").Line != keyLine {
		t.Errorf("row 30 of the corpus before moved to line %d (key at %d), want %d (%d)", b[30].Line, b[30].Pos("key").Line, line, keyLine)
	}
}
