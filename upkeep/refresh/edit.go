package refresh

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/internal/diag"
)

// Edit is a refresh's proposed change of the corpus files: papers.csv
// with the proposals applied (Apply) and, when the corpus has one,
// papers.bib following the rows (ApplyBib). masrl refresh prints it and,
// with --write, proposes Files (corpus.Propose); Edit writes nothing.
type Edit struct {
	// Dir is the corpus directory.
	Dir string
	// Files are the new contents by name in the corpus directory.
	Files map[string][]byte
	// Proposals are the changes the edit makes, in file order.
	Proposals []Proposal
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
	ed := &Edit{Dir: c.Dir, Files: map[string][]byte{corpus.PapersFile: out}, Proposals: ps}
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

// WriteReport writes what the edit changes as masrl refresh prints it:
// one line per proposal (its row, its key, the columns it changes and
// where the news came from), then one per papers.bib entry it changes.
func (ed *Edit) WriteReport(w io.Writer) {
	for _, p := range ed.Proposals {
		fmt.Fprintf(w, "%s: %s: %s (%s)\n", p.Pos, p.Key, strings.Join(p.Columns(), ", "), strings.Join(p.Sources, "; "))
	}
	for _, ch := range ed.BibChanged {
		fmt.Fprintln(w, ch.String())
	}
}

// WriteProposed writes what masrl refresh prints of the edit it
// proposes: the report (WriteReport) on w; on log why papers.bib is not
// updated (it does not parse: masrl check says where; the rows are still
// refreshed, and this says which entries to mend by hand) and ApplyBib's
// findings; then on w the diff of the rows (Diff) as masrl diff prints
// it.
func (ed *Edit) WriteProposed(w, log io.Writer, ck *corpus.Checked, withClaims bool) {
	ed.WriteReport(w)
	if ed.BibErr != nil {
		fmt.Fprintf(log, "masrl refresh: %s is not updated: %v\n", filepath.Join(ed.Dir, corpus.BibFile), ed.BibErr)
	}
	for _, d := range ed.BibFindings {
		fmt.Fprintln(log, d.String())
	}
	d := ed.Diff(ck, withClaims)
	io.WriteString(w, "\n"+d.Markdown(len(ed.Before.Papers), len(ed.After.Papers)))
}

// WriteWritten writes what masrl refresh prints once the edit is
// written: each file it wrote with the number of entries changed in it.
func (ed *Edit) WriteWritten(w io.Writer) {
	fmt.Fprintf(w, "\nwrote %s: %s\n", filepath.Join(ed.Dir, corpus.PapersFile), diag.Count(len(ed.Proposals), "entry"))
	if len(ed.BibChanged) > 0 {
		fmt.Fprintf(w, "wrote %s: %s\n", filepath.Join(ed.Dir, corpus.BibFile), diag.Count(len(ed.BibChanged), "entry"))
	}
}

// Diff is what the refresh changes in the rows of the corpus ck, the
// counts and, withClaims, the outcomes of ck's claims, its sides named
// "before" and "after refresh".
func (ed *Edit) Diff(ck *corpus.Checked, withClaims bool) corpus.Diff {
	var claims *corpus.Claims
	if withClaims {
		claims = ck.Claims
	}
	d := corpus.DiffCorpora(ed.Before, ed.After, ck.Vocabulary, claims)
	d.Old, d.New = "before", "after refresh"
	return d
}

// Record adds the corpus's upkeep.yaml to the edit's files with date
// (YYYY-MM-DD) as its last refresh, so that the date is written in the
// same transaction as the rows it vouches for.
func (ed *Edit) Record(date string) error {
	b, err := release.UpkeepRecorded(ed.Dir, func(u *release.Upkeep) { u.Refreshed = date })
	if err != nil {
		return err
	}
	ed.Files[release.UpkeepFile] = b
	return nil
}
