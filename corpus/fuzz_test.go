package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// addSeeds adds every file of the fixtures with the given name as a seed.
func addSeeds(f *testing.F, name string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "base", name))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	// The rule cases' files of that name: control characters, bidi
	// controls, formula cells, CR-only line ends.
	archives, _ := filepath.Glob(filepath.Join("testdata", "check", "*.txtar"))
	for _, p := range archives {
		if ar, err := txtar.ParseFile(p); err == nil {
			for _, file := range ar.Files {
				if file.Name == name {
					f.Add(file.Data)
				}
			}
		}
	}
	f.Add([]byte{})
	f.Add([]byte("\xef\xbb\xbfkey,title\r\n\"a\nb\",\"unterminated"))
	f.Add([]byte("key,title\rk,\u202Eopen\r\"\x00\",=1\r"))
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
				e := c.Papers[i]
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

// FuzzReusePapers loads a papers.csv text, then another from the first
// (reusePapers, Reopen's path), and holds the result to the second text
// decoded alone: the same rows, positions and findings, whatever the two
// texts hold.
func FuzzReusePapers(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "base", PapersFile))
	if err != nil {
		f.Fatal(err)
	}
	base := string(b)
	f.Add(base, strings.Replace(base, "Alpha", "Alpha, edited\nover two lines", 1))
	f.Add(base, strings.Replace(base, "beta,", "beta2,", 1)+"extra,row\n")
	f.Add(strings.TrimSuffix(base, "\n"), base+"more")
	f.Add(base, strings.Replace(base, "\n", "\r\n", -1))
	f.Add(base, base[:len(base)/2])
	f.Fuzz(func(t *testing.T, before, after string) {
		prev := &Corpus{}
		if err := prev.loadPapersText(PapersFile, before, nil); err != nil {
			return
		}
		got := &Corpus{}
		if err := got.loadPapersText(PapersFile, after, prev); err != nil {
			return
		}
		want, err := ParsePapers(PapersFile, []byte(after))
		if err != nil {
			t.Fatalf("the text loads from the previous one but not alone: %v", err)
		}
		if !reflect.DeepEqual(got.Papers, want.Papers) {
			t.Fatalf("rows from the previous text:\n%+v\ndecoded alone:\n%+v", got.Papers, want.Papers)
		}
		if !reflect.DeepEqual(got.loadDiags, want.loadDiags) {
			t.Fatalf("findings from the previous text:\n%v\ndecoded alone:\n%v", got.loadDiags, want.loadDiags)
		}
	})
}
