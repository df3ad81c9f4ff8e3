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

// TestReopenLetsOlderGo holds what a reopened corpus keeps of the ones
// before it to the one before: masrl serve reopens the corpus on every
// edit for as long as it runs, and a chain from each corpus to all the
// earlier ones (a closure or memo still holding its prev) grows its heap
// by the rows of every edit, 90 MB an edit at 100,000 entries. After two
// edits the first corpus must be collectable.
func TestReopenLetsOlderGo(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: 50, Exclusions: 5, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	title := slices.Index(rows[0], "title")
	opt := corpus.CheckOptions{Today: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}

	first, err := corpus.Reopen(nil, dir, nil, "", opt)
	if err != nil {
		t.Fatal(err)
	}
	first.Diagnostics()
	firstRef, firstCorpus := weak.Make(first), weak.Make(first.Corpus)
	ck := first
	first = nil
	for i := range 2 {
		rows[1+i][title] = fmt.Sprintf("A title edited %d", i)
		writeCSV(t, papers, rows)
		ck, err = corpus.Reopen(ck, dir, nil, "", opt)
		if err != nil {
			t.Fatal(err)
		}
		ck.Diagnostics()
	}
	runtime.GC()
	runtime.GC()
	if firstRef.Value() != nil {
		t.Error("the first Checked is still reachable after two reopens: each reopened corpus keeps every one before it")
	}
	if firstCorpus.Value() != nil {
		t.Error("the first Corpus is still reachable after two reopens: each reopened corpus keeps every one before it")
	}
	runtime.KeepAlive(ck)
}
