package corpus_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
)

// TestPassesAfterMatchesVerdict holds Checked.PassesAfter, which lets
// masrl serve show an edit's page before the check of every row ends,
// to the full check: over seeded in-place edits of one or two rows from
// a corpus that passes (titles, notes, links, years, arXiv ids; some
// that break a row's own rules or make a row the same paper as an
// excluded record, which the check refuses), it may say "passes" only
// when a full check passes, and must say it for most edits that pass.
// An edit the check refuses is undone before the next.
func TestPassesAfterMatchesVerdict(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: 200, Exclusions: 20, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	excluded := corpustest.ReadCSV(t, filepath.Join(dir, corpus.ExcludedFile))
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	col := func(name string) int { return slices.Index(rows[0], name) }
	rnd := rand.New(rand.NewPCG(39, 4))
	row := func() int { return 1 + rnd.IntN(len(rows)-1) }
	edits := []struct {
		name string
		do   func()
	}{
		{"retitle", func() { rows[row()][col("title")] = fmt.Sprintf("A new title %d", rnd.IntN(1000)) }},
		{"notes", func() { rows[row()][col("notes")] += " more" }},
		{"two rows", func() {
			rows[row()][col("title")] += " (2)"
			rows[row()][col("one_liner")] += " again"
		}},
		{"duplicate title", func() { rows[row()][col("title")] = rows[row()][col("title")] }},
		{"year", func() { rows[row()][col("year")] = fmt.Sprint(2015 + rnd.IntN(10)) }},
		{"bad year", func() { rows[row()][col("year")] = "19x9" }},
		{"future year", func() { rows[row()][col("year")] = "2031" }},
		{"bad url", func() { rows[row()][col("url")] = "ftp://example.org/" }},
		{"empty title", func() { rows[row()][col("title")] = "" }},
		{"bad arxiv id", func() { rows[row()][col("arxiv_id")] = "1234" }},
		{"spaces", func() { rows[row()][col("venue")] = " padded " }},
		{"an excluded paper", func() {
			rows[row()][col("title")] = excluded[1+rnd.IntN(len(excluded)-1)][slices.Index(excluded[0], "screening_label")]
		}},
	}
	prev, err := corpus.Reopen(nil, dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := prev.Err(); err != nil {
		t.Fatalf("the synthetic corpus fails its check: %v", err)
	}
	passed, known := 0, 0
	for n := range 150 {
		saved := make([][]string, len(rows))
		for i, r := range rows {
			saved[i] = slices.Clone(r)
		}
		e := edits[rnd.IntN(len(edits))]
		e.do()
		writeCSV(t, papers, rows)
		inc, err := corpus.Reopen(prev, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		says := inc.PassesAfter(prev, true)
		full, err := corpus.OpenWith(dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		ferr := full.Err()
		if says && ferr != nil {
			t.Fatalf("edit %d (%s): PassesAfter says the check passes; it fails: %v", n, e.name, ferr)
		}
		if ferr != nil {
			rows = saved
			writeCSV(t, papers, rows)
			if prev, err = corpus.Reopen(inc, dir, nil, "", opt); err != nil {
				t.Fatal(err)
			}
			continue
		}
		passed++
		if says {
			known++
		}
		prev = inc
	}
	if known < passed*3/4 {
		t.Errorf("PassesAfter knew %d of %d edits that pass: it is not what serve can rely on", known, passed)
	}
	t.Logf("%d edits passed, PassesAfter knew %d", passed, known)
}
