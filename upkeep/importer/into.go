package importer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"

	"github.com/masrl/masrl/corpus"
)

// Into prepares the merge of the entries into the list in dir (Merge),
// reading the list as masrl add does: refused while the journal of an
// interrupted edit is in it, its own vocabulary, papers.csv and
// papers.bib as they stand. It returns the merge and, when the merge adds
// an entry, the list as it stands with its check started, for
// corpus.Edit to judge the merge's Changes against; nothing is written.
func (r *Result) Into(dir string) (*Merge, *corpus.Checked, error) {
	if err := corpus.Interrupted(dir); err != nil {
		return nil, nil, err
	}
	d, err := corpus.LoadData(nil, "", dir)
	if err != nil {
		return nil, nil, err
	}
	c, err := corpus.Load(dir)
	if err != nil {
		return nil, nil, err
	}
	papers, err := corpus.ReadFile(dir, corpus.PapersFile)
	if err != nil {
		return nil, nil, err
	}
	bib, err := corpus.ReadFile(dir, corpus.BibFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	m, err := r.Merge(c, d.Vocabulary, papers, bib)
	if err != nil || len(m.Added) == 0 {
		return m, nil, err
	}
	return m, corpus.StartCheck(c, d, corpus.CheckOptions{}), nil
}

// WriteListing writes a new list's files as import --dry-run shows them:
// each after a "--- NAME" line, in name order.
func WriteListing(w io.Writer, files map[string][]byte) {
	for _, n := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(w, "--- %s\n%s", n, files[n])
	}
}
