package serve

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"weak"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestServeLetsOlderBuildsGo holds what serve keeps across edits to the
// last build and the one it is making: serve runs for hours, and a build
// that kept the corpus (or the rows) of the build before it, which kept
// the one before, grows the heap by the rows of every edit, 90 MB an
// edit at 100,000 entries. After three one-row edits, shown early from a
// visited page as a maintainer's edits are, the first build's corpus and
// its slice of rows must be collectable (the rows no edit touched are
// shared with the last build, and so is the array they were decoded
// into: corpus's TestReopenLetsMovedRowsGo holds the rows that moved).
func TestServeLetsOlderBuildsGo(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	s, ts := newTestServer(t, dir)
	s.RebuildQuietly() // the buffer, as serve's start does
	if code, _ := get(t, ts.URL+"/papers/magrpo/"); code != 200 {
		t.Fatalf("/papers/magrpo/: %d", code)
	}
	firstChecked := weak.Make(s.corpus)
	firstPapers := s.corpus.Corpus.Papers
	firstRows := weak.Make(&firstPapers[0])
	firstPapers = nil

	papers := filepath.Join(dir, corpus.PapersFile)
	rows := corpustest.ReadCSV(t, papers)
	title := slices.Index(rows[0], "title")
	for i := range 3 {
		rows[len(rows)-1-i][title] = fmt.Sprintf("A title edited under serve %d", i)
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		if err := w.WriteAll(rows); err != nil {
			t.Fatal(err)
		}
		corpustest.WriteLater(t, papers, b.Bytes())
		s.Rebuild()
		if s.failure != nil {
			t.Fatalf("edit %d failed: %q", i, s.failure)
		}
	}
	runtime.GC()
	runtime.GC()
	if firstChecked.Value() != nil {
		t.Error("the first build's corpus is still reachable after three edits: each build keeps the ones before it")
	}
	if firstRows.Value() != nil {
		t.Error("the first build's slice of rows is still reachable after three edits: each build keeps the ones before it")
	}
}
