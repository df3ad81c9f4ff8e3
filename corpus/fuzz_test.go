package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds every file of the fixtures with the given name as a seed.
func addSeeds(f *testing.F, name string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "base", name))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte{})
	f.Add([]byte("\xef\xbb\xbfkey,title\r\n\"a\nb\",\"unterminated"))
	f.Add([]byte("@article{x, title = {unclosed"))
}

// FuzzParsePapers feeds arbitrary bytes to the CSV loader and the checker,
// against the survey's vocabulary (an exact header) and a list's own (any
// column order, free-text columns): neither may panic, and every reported
// position must lie inside the input.
func FuzzParsePapers(f *testing.F) {
	addSeeds(f, PapersFile)
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "lists", "gnnx", "corpus", PapersFile)); err == nil {
		f.Add(b)
	}
	v, err := DefaultVocabulary()
	if err != nil {
		f.Fatal(err)
	}
	own, err := ListVocabulary(filepath.Join("..", "testdata", "lists", "gnnx", "corpus"))
	if err != nil || own == nil {
		f.Fatalf("the example list's vocabulary: %v", err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParsePapers(PapersFile, b)
		if err != nil {
			return
		}
		for _, voc := range []*Vocabulary{v, own} {
			for _, d := range Check(c, voc, CheckOptions{Today: checkDay}) {
				if d.Pos.File == PapersFile && d.Pos.Line > 0 {
					checkPosition(t, b, d)
				}
			}
			for i := range c.Papers {
				e := &c.Papers[i]
				if _, err := e.MarshalJSON(); err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
			}
		}
	})
}

// FuzzParseBib feeds arbitrary bytes to the BibTeX parser.
func FuzzParseBib(f *testing.F) {
	addSeeds(f, BibFile)
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, ds := parseBib(BibFile, b)
		for _, d := range ds {
			checkPosition(t, b, d)
		}
		for _, e := range entries {
			if e.Pos.Line < 1 || e.Key == "" {
				t.Fatalf("entry without position or key: %+v", e)
			}
			_ = e.ArxivID()
		}
	})
}
