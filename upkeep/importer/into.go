package importer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/masrl/masrl/corpus"
)

// ReadSources reads each file named, in order, into one Result (Read),
// stopping at the first that cannot be read (an *fs.PathError) or is of
// no format at all; items that cannot be read are the Result's Problems.
func ReadSources(names []string, opt Options) (*Result, error) {
	r := &Result{}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if err := r.Read(name, src, opt); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// NewList returns the files of a new list in dir (Files) once they pass
// the check (Check), in memory: nothing is written.
func (r *Result) NewList(dir string) (map[string][]byte, error) {
	files, err := r.Files(nil)
	if err != nil {
		return nil, err
	}
	return files, Check(dir, files)
}

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
