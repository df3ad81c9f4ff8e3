package corpus_test

import (
	"fmt"
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

// retainFixture is a synthetic corpus of n entries opened to be
// reopened, with its papers.csv's rows and a function that writes them
// back and reopens the corpus from the one before.
type retainFixture struct {
	rows   [][]string
	title  int // rows' title column
	ck     *corpus.Checked
	reopen func()
}

func newRetainFixture(t *testing.T, n int) *retainFixture {
	t.Helper()
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: n, Exclusions: 5, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	f := &retainFixture{rows: corpustest.ReadCSV(t, papers)}
	f.title = slices.Index(f.rows[0], "title")
	f.reopen = func() {
		t.Helper()
		if f.ck != nil {
			writeCSV(t, papers, f.rows)
		}
		ck, err := corpus.Reopen(f.ck, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		ck.Diagnostics()
		f.ck = ck
	}
	f.reopen()
	return f
}

// collectable says whether p's value is gone after two collections.
func collectable[T any](p weak.Pointer[T]) bool {
	runtime.GC()
	runtime.GC()
	return p.Value() == nil
}

// TestReopenLetsOlderGo holds what a reopened corpus keeps of the ones
// before it to the one before: masrl serve reopens the corpus on every
// edit for as long as it runs, and a chain from each corpus to all the
// earlier ones (a closure or memo still holding its prev) grows its heap
// by the rows of every edit, 90 MB an edit at 100,000 entries. After two
// edits the first corpus must be collectable.
func TestReopenLetsOlderGo(t *testing.T) {
	f := newRetainFixture(t, 50)
	firstChecked, firstCorpus := weak.Make(f.ck), weak.Make(f.ck.Corpus)
	for i := range 2 {
		f.rows[1+i][f.title] = fmt.Sprintf("A title edited %d", i)
		f.reopen()
	}
	if !collectable(firstChecked) {
		t.Error("the first Checked is still reachable after two reopens: each reopened corpus keeps every one before it")
	}
	if !collectable(firstCorpus) {
		t.Error("the first Corpus is still reachable after two reopens: each reopened corpus keeps every one before it")
	}
	runtime.KeepAlive(f)
}

// TestReopenLetsMovedRowsGo: an edit that changes how many lines a row
// takes (a title over two lines) moves every row after it, and Reopen
// gives those rows copies at their new lines. A copy a later such edit
// replaces must be collectable although the rows copied with it stay:
// copies made as one array would each keep a whole array of rows alive,
// one more for every such edit while serve runs.
func TestReopenLetsMovedRowsGo(t *testing.T) {
	f := newRetainFixture(t, 200)
	var moved weak.Pointer[corpus.Entry]
	for i, row := range []int{10, 150} {
		f.rows[row][f.title] += "\nover two lines"
		f.reopen()
		if i == 0 {
			// A row after both edits, moved by the first, moved again
			// by the second.
			moved = weak.Make(f.ck.Corpus.Papers[180])
		}
	}
	if !collectable(moved) {
		t.Error("a row moved by the first edit and again by the second is still reachable: the rows moved by one edit are kept together")
	}
	runtime.KeepAlive(f)
}
