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

// FuzzParsePapers feeds arbitrary bytes to the CSV loader and the checker:
// neither may panic, and every reported position must lie inside the input.
func FuzzParsePapers(f *testing.F) {
	addSeeds(f, PapersFile)
	v, err := DefaultVocabulary()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParsePapers(PapersFile, b)
		if err != nil {
			return
		}
		for _, d := range Check(c, v, CheckOptions{Today: checkDay}) {
			if d.Pos.File == PapersFile && d.Pos.Line > 0 {
				checkPosition(t, b, d)
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
