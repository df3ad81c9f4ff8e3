package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// ExamplePropose checks an edit of a corpus before writing it: the
// proposal's findings name the corpus's own papers.csv, and nothing is on
// disk until Apply writes the files, all or none.
func ExamplePropose() {
	dir, _ := os.MkdirTemp("", "example-corpus-")
	defer os.RemoveAll(dir)
	// A list of its own: one controlled field, declared beside papers.csv.
	os.WriteFile(filepath.Join(dir, corpus.VocabFile), []byte(`fields:
  - name: kind
    label: Kind
    file: papers.csv
    definition: What the work contributes.
    values:
      - {value: method, label: Method, definition: A new method.}
      - {value: survey, label: Survey, definition: A review.}
`), 0o644)
	os.WriteFile(filepath.Join(dir, corpus.PapersFile), []byte("key,title,year,url,kind\nalpha,Alpha,2026,https://example.org/alpha,method\n"), 0o644)
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	header := "key,title,year,url,kind\nalpha,Alpha,2026,https://example.org/alpha,method\n"
	propose := func(row string) *corpus.Proposal {
		p, err := corpus.Propose(ck, map[string][]byte{corpus.PapersFile: []byte(header + row)})
		if err != nil {
			fmt.Println(err)
			return nil
		}
		for _, d := range p.After.Diagnostics() {
			fmt.Println(strings.TrimPrefix(d.String(), dir+string(filepath.Separator)))
		}
		return p
	}
	rows := func() int {
		b, _ := os.ReadFile(filepath.Join(dir, corpus.PapersFile))
		return strings.Count(string(b), "\n") - 1
	}
	// A second row with the same key: refused, nothing written.
	if p := propose("alpha,Beta,2026,https://example.org/beta,survey\n"); p != nil && p.After.Err() == nil {
		p.Apply(corpus.ApplyOptions{})
	}
	fmt.Println("rows on disk:", rows())
	// With a key of its own: written.
	if p := propose("beta,Beta,2026,https://example.org/beta,survey\n"); p != nil && p.After.Err() == nil {
		d := p.Diff()
		fmt.Println("added:", len(d.Added))
		if err := p.Apply(corpus.ApplyOptions{}); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println("rows on disk:", rows())
	// Output:
	// papers.bib: warning: missing: entries will have no BibTeX
	// papers.csv:3:1: error: key: duplicate key "alpha"; first used on line 2
	// rows on disk: 1
	// papers.bib: warning: missing: entries will have no BibTeX
	// added: 1
	// rows on disk: 2
}
