package corpus_test

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
)

// TestReopenLetsMovedRowsGo: an edit that changes how many lines a row
// takes (a title over two lines) moves every row after it, and Reopen
// gives those rows copies at their new lines. A copy a later such edit
// replaces must be collectable although the rows copied with it stay:
// copies made as one array would each keep a whole array of rows alive,
// one more for every such edit while serve runs.
func TestReopenLetsMovedRowsGo(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: 200, Exclusions: 5, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	title := slices.Index(rows[0], "title")
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	ck, err := corpus.Reopen(nil, dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	ck.Diagnostics()
	var moved weak.Pointer[corpus.Entry]
	for i, row := range []int{10, 150} {
		rows[row][title] += "\nover two lines"
		writeCSV(t, papers, rows)
		if ck, err = corpus.Reopen(ck, dir, nil, "", opt); err != nil {
			t.Fatal(err)
		}
		ck.Diagnostics()
		if i == 0 {
			// A row after both edits, moved by the first, moved again
			// by the second.
			moved = weak.Make(ck.Corpus.Papers[180])
		}
	}
	runtime.GC()
	runtime.GC()
	if moved.Value() != nil {
		t.Error("a row moved by the first edit and again by the second is still reachable: the rows moved by one edit are kept together")
	}
	runtime.KeepAlive(ck)
}
