package importer

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// Merge is the part of an import into an existing list (--into): the
// new content of papers.csv and papers.bib, for corpus.Propose, and what
// was left out.
type Merge struct {
	// Changes are papers.csv and papers.bib with the new rows and
	// entries appended, in canonical form.
	Changes map[string][]byte
	// Added are the keys of the new rows.
	Added []string
	// Duplicates are the entries already in the list (same arXiv id,
	// DOI, URL or normalised title), at their source line.
	Duplicates []Problem
	// Problems are entries the list's vocabulary cannot hold: a value
	// it does not know, a controlled field the source does not give.
	Problems []Problem
}

// Report writes the merge's outcome: the counts, then every duplicate
// and every entry left out, one FILE:line: line each.
func (m *Merge) Report(w io.Writer) {
	fmt.Fprintf(w, "%d entries to add, %d already in the list, %d the list cannot hold\n", len(m.Added), len(m.Duplicates), len(m.Problems))
	for _, p := range m.Duplicates {
		fmt.Fprintln(w, p)
	}
	for _, p := range m.Problems {
		fmt.Fprintln(w, p)
	}
}

// Merge appends the entries to the list c (its vocabulary v, papers.csv
// and papers.bib as they stand, bib nil when missing). An entry already
// in the list is reported, not added. The imported values of Field are
// matched to the list's field of that name (else its list field) by
// value or label, case-insensitively; an entry keeps the values the
// list knows, and one left with none, or one the list needs another
// controlled field for, is reported and left out.
func (r *Result) Merge(c *corpus.Corpus, v *corpus.Vocabulary, papers, bib []byte) (*Merge, error) {
	header, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(papers, []byte("\xef\xbb\xbf")))).Read()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the header: %w", corpus.PapersFile, err)
	}
	field := v.Field(Field)
	if field == nil || field.File != corpus.PapersFile {
		field = v.ListField()
	}
	labels := map[string]string{} // imported value → label
	for _, val := range r.Values {
		labels[val.Value] = val.Label
	}
	m := &Merge{}
	var rows bytes.Buffer
	cw := csv.NewWriter(&rows)
	var newBib strings.Builder
	drafts := r.drafts(c.KeyTaken)
	for i, e := range r.Entries {
		if dup := c.Duplicates(corpus.Candidate{ArxivID: e.ArxivID, DOI: e.DOI, URLs: []string{e.URL}, Title: e.Title}); len(dup) > 0 {
			m.Duplicates = append(m.Duplicates, Problem{e.Pos, fmt.Sprintf("%q is already in the list: %s", e.Title, strings.Join(dup, "; "))})
			continue
		}
		d := drafts[i]
		var known, unknown []string
		for _, val := range e.Values {
			if t := matchTerm(field, val, labels[val]); t != "" {
				known = append(known, t)
			} else {
				unknown = append(unknown, fmt.Sprintf("%q", labels[val]))
			}
		}
		// The list's other controlled fields need a value the source
		// does not give.
		var missing []string
		for _, f := range v.FieldsOf(corpus.PapersFile) {
			if f != field && slices.Contains(header, f.Name) {
				missing = append(missing, f.Name)
			}
		}
		switch {
		case field == nil || !slices.Contains(header, field.Name):
			missing = append(missing, Field)
		case len(known) == 0:
			msg := fmt.Sprintf("%q has no value the list's %s knows", e.Title, field.Name)
			if len(unknown) > 0 {
				msg += fmt.Sprintf(" (filed under %s; add it to vocab.yaml)", strings.Join(unknown, ", "))
			}
			m.Problems = append(m.Problems, Problem{e.Pos, msg + "; allowed: " + strings.Join(field.Allowed(), ", ")})
			continue
		case !field.Multiple && len(known) > 1:
			known = known[:1]
		}
		if len(missing) > 0 {
			m.Problems = append(m.Problems, Problem{e.Pos, fmt.Sprintf("%q: the list needs %s, which the source does not give; add the paper with masrl add", e.Title, strings.Join(missing, ", "))})
			continue
		}
		d.Row[field.Name] = strings.Join(known, "; ")
		_ = cw.Write(d.Record(header))
		newBib.WriteString("\n" + d.BibText)
		m.Added = append(m.Added, d.Key)
	}
	cw.Flush()
	if len(m.Added) == 0 {
		return m, nil
	}
	if len(papers) > 0 && papers[len(papers)-1] != '\n' {
		papers = append(papers, '\n')
	}
	csvOut, err := corpus.FormatCSVWith(corpus.PapersFile, append(bytes.Clone(papers), rows.Bytes()...), v)
	if err != nil {
		return nil, err
	}
	bibOut, err := corpus.FormatBib(corpus.BibFile, append(bytes.Clone(bib), newBib.String()...))
	if err != nil {
		return nil, err
	}
	m.Changes = map[string][]byte{corpus.PapersFile: csvOut, corpus.BibFile: bibOut}
	return m, nil
}

// matchTerm finds the list's value for an imported one: the same value,
// or a value or label equal to the imported label, ignoring case.
func matchTerm(f *corpus.Field, value, label string) string {
	if f == nil {
		return ""
	}
	for _, t := range f.Values {
		if t.Value == value || strings.EqualFold(t.Value, label) || strings.EqualFold(t.Label, label) || corpus.Slug(t.Label) == value {
			return t.Value
		}
	}
	return ""
}
