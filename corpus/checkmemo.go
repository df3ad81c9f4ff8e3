package corpus

import (
	"bytes"
	"encoding/json"
	"time"
)

// checkMemo is what one check of a corpus keeps so that the check of the
// same corpus reopened after an edit (Reopen) checks again only what the
// edit can change: each row's own findings, by the row's record, and
// each row's BibTeX findings while papers.bib and the row's line stay
// the same. The rules that read every row (duplicate keys and titles,
// BibTeX entries no row uses, excluded records also retained, the
// spot-check) run again over all of them; each is a map lookup a row.
// A memo is only reused against the same vocabulary, header and day
// (usable), so that a reused finding is the one the rule would give.
type checkMemo struct {
	vocab  []byte      // the vocabulary the rows were checked against, as JSON
	header *rowColumns // papers.csv's header, shared by its rows
	today  string      // the check's day: years and dates are bounded by it
	bibSrc string      // papers.bib's text the BibTeX findings were found in
	// rows and bibs are filled by the papers' rules and the BibTeX rules,
	// which run at once: one map each.
	rows map[*string]rowFindings
	bibs map[*string]bibFindings
	// reused counts the rows whose own findings were reused (tests
	// hold the memo to being used, not only to being right).
	reused int
	// prev is the memo of the check before, read while this one is
	// filled; nil when nothing can be reused.
	prev *checkMemo
}

// rowFindings are one row's own findings: those before the
// duplicate-key rule and those after it (the order a full check gives
// them), with the row starting on line.
type rowFindings struct {
	line          int
	before, after Diagnostics
}

// bibFindings are one row's BibTeX matches and findings, with the row
// starting on line.
type bibFindings struct {
	line  int
	found []int
	ds    Diagnostics
}

// rowID is a row's identity across loads: its record's values, which a
// load from a previous one (LoadOptions.Previous) shares with the
// previous row when the record did not change, and a changed record
// never does. nil for a row without values (built by hand): it is
// always checked.
func rowID(e *Entry) *string {
	if len(e.fields) == 0 {
		return nil
	}
	return &e.fields[0]
}

// newCheckMemo returns the memo a check of c against v fills, reusing
// prev's rows when prev checked the same header against the same
// vocabulary on the same day.
func newCheckMemo(c *Corpus, v *Vocabulary, today time.Time, prev *checkMemo) *checkMemo {
	vocab, err := json.Marshal(v)
	if err != nil {
		vocab = nil
	}
	m := &checkMemo{vocab: vocab, today: today.Format(time.DateOnly), bibSrc: c.bibSrc, rows: make(map[*string]rowFindings, len(c.Papers)), bibs: make(map[*string]bibFindings, len(c.Papers))}
	if len(c.Papers) > 0 {
		m.header = c.Papers[0].cols
	}
	if prev != nil && vocab != nil && bytes.Equal(prev.vocab, vocab) && prev.header == m.header && prev.today == m.today {
		m.prev = prev
	}
	return m
}

// prevRow returns the findings the check before found for the row id.
func (m *checkMemo) prevRow(id *string) (rowFindings, bool) {
	if m == nil || m.prev == nil || id == nil {
		return rowFindings{}, false
	}
	r, ok := m.prev.rows[id]
	return r, ok
}

// keepRow records a row's findings for the next check.
func (m *checkMemo) keepRow(id *string, r rowFindings) {
	if m != nil && id != nil {
		m.rows[id] = r
	}
}

// prevBib returns the BibTeX findings of the check before for the row
// id starting on line, when it saw the same papers.bib and the row on
// the same line (the findings name it).
func (m *checkMemo) prevBib(id *string, line int) (bibFindings, bool) {
	if m == nil || m.prev == nil || id == nil || m.prev.bibSrc != m.bibSrc {
		return bibFindings{}, false
	}
	r, ok := m.prev.bibs[id]
	return r, ok && r.line == line
}

// keepBib records a row's BibTeX findings for the next check.
func (m *checkMemo) keepBib(id *string, r bibFindings) {
	if m != nil && id != nil {
		m.bibs[id] = r
	}
}

// moved returns the row's own findings for the row now starting on line:
// every position moves with it (a record's fields move together).
func (r rowFindings) moved(line int) rowFindings {
	d := line - r.line
	if d == 0 {
		return r
	}
	return rowFindings{line: line, before: shifted(r.before, d), after: shifted(r.after, d)}
}

// shifted returns ds with every line moved by d.
func shifted(ds Diagnostics, d int) Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := make(Diagnostics, len(ds))
	for i, x := range ds {
		if x.Pos.Line > 0 {
			x.Pos.Line += d
		}
		out[i] = x
	}
	return out
}
