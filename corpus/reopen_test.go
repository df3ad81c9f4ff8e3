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
