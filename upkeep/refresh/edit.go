package refresh

import (
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

// Edit is a refresh's proposed change of the corpus files: papers.csv
// with the proposals applied (Apply) and, when the corpus has one,
// papers.bib following the rows (ApplyBib). masrl refresh prints it and,
// with --write, proposes Files (corpus.Propose); Edit writes nothing.
type Edit struct {
	// Files are the new contents by name in the corpus directory.
	Files map[string][]byte
	// Before and After are papers.csv alone, as it is and as refreshed,
	// so that their diff is about the rows the refresh changes.
	Before, After *corpus.Corpus
	// BibChanged are the papers.bib entries changed; BibErr says why
	// papers.bib was not updated (it does not parse: the rows are still
	// refreshed), and BibFindings are ApplyBib's findings.
	BibChanged  []BibChange
	BibErr      error
	BibFindings corpus.Diagnostics
}

// NewEdit applies ps to the files of c's directory, read once each.
func NewEdit(c *corpus.Corpus, ps []Proposal) (*Edit, error) {
	name := filepath.Join(c.Dir, corpus.PapersFile)
	src, err := corpus.ReadFile(c.Dir, corpus.PapersFile)
	if err != nil {
		return nil, err
	}
	out, err := Apply(name, src, ps)
	if err != nil {
		return nil, err
	}
	ed := &Edit{Files: map[string][]byte{corpus.PapersFile: out}}
	if ed.After, err = corpus.ParsePapers(name, out); err != nil {
		return nil, err
	}
	if c.HasBib {
		bib, err := corpus.ReadFile(c.Dir, corpus.BibFile)
		if err != nil {
			return nil, err
		}
		newBib, changed, ds, err := ApplyBib(filepath.Join(c.Dir, corpus.BibFile), bib, c, ps)
		ed.BibErr, ed.BibFindings = err, ds
		if len(changed) > 0 {
			ed.Files[corpus.BibFile], ed.BibChanged = newBib, changed
		}
	}
	if ed.Before, err = corpus.ParsePapers(name, src); err != nil {
		return nil, err
	}
	return ed, nil
}
