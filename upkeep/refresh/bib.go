package refresh

import (
	"maps"
	"slices"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
)

// bibType is the BibTeX entry type of a Crossref work type, or "" for a
// type that does not say.
func bibType(crossrefType string) string {
	switch crossrefType {
	case "journal-article":
		return "article"
	case "proceedings-article":
		return "inproceedings"
	}
	return ""
}

// BibChange is a BibTeX entry ApplyBib changed: its key and position,
// the fields it set (type first when the entry type changed) and those it
// removed, in the order FormatBib writes fields.
type BibChange struct {
	Key          string
	Pos          corpus.Pos
	Set, Removed []string
}

// String is the change as one line: file:line:col: key: fields.
func (c BibChange) String() string {
	s := c.Pos.String() + ": " + c.Key + ": " + strings.Join(c.Set, ", ")
	if len(c.Removed) > 0 {
		if len(c.Set) > 0 {
			s += "; "
		}
		s += "removes " + strings.Join(c.Removed, ", ")
	}
	return s
}

// ApplyBib writes into papers.bib's content the proposals' changes of the
// columns a citation carries (title, year, venue, arxiv_id, and the DOI
// of a published version), so that the BibTeX entry of a row cites the
// version the row now names, and returns it in masrl fmt's form with the
// entries it changed, in file order. The entries keep their keys:
// documents cite them. A row without a BibTeX entry is left to masrl
// check, which reports it; an entry that cannot be edited without losing
// a comment inside it is a warning at its position, and stays as it was.
func ApplyBib(name string, src []byte, c *corpus.Corpus, ps []Proposal) (out []byte, changed []BibChange, ds corpus.Diagnostics, err error) {
	edits := map[string]corpus.BibEdit{}
	changes := map[string]BibChange{}
	for i := range ps {
		e := c.Entry(ps[i].Key)
		if e == nil {
			continue
		}
		b := c.BibFor(e)
		if b == nil {
			continue
		}
		ed := bibEdit(e, b, &ps[i])
		if ch := bibChange(b, ed); len(ch.Set)+len(ch.Removed) > 0 {
			edits[b.Key], changes[b.Key] = ed, ch
		}
	}
	if len(edits) == 0 {
		return src, nil, nil, nil
	}
	out, skipped, err := corpus.EditBib(name, src, edits)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, s := range skipped {
		delete(changes, s.Key)
		ds = append(ds, corpus.Diagnostic{Severity: corpus.Warning, Pos: s.Pos, Field: "bib", Value: s.Key, Keys: []string{s.Key},
			Message: s.Key + " not updated by refresh: the entry holds a comment, which rewriting it would lose; update it by hand as papers.csv's row says"})
	}
	changed = slices.SortedFunc(maps.Values(changes), func(a, b BibChange) int { return a.Pos.Line - b.Pos.Line })
	return out, changed, ds, nil
}

// bibChange says what ed changes in b: the fields whose value differs
// and those it removes that b has.
func bibChange(b *corpus.BibEntry, ed corpus.BibEdit) BibChange {
	ch := BibChange{Key: b.Key, Pos: b.Pos}
	if ed.Type != "" && ed.Type != b.Type {
		ch.Set = append(ch.Set, "type")
	}
	for _, f := range corpus.SortBibFields(slices.Collect(maps.Keys(ed.Set))) {
		old, has := b.Fields[f]
		switch v := ed.Set[f]; {
		case v == "" && has:
			ch.Removed = append(ch.Removed, f)
		case v != "" && v != old:
			ch.Set = append(ch.Set, f)
		}
	}
	return ch
}

// bibEdit is the change of one BibTeX entry a proposal asks for; empty
// when it changes nothing a citation carries (a notice alone).
func bibEdit(e *corpus.Entry, b *corpus.BibEntry, p *Proposal) corpus.BibEdit {
	ed := corpus.BibEdit{Set: map[string]string{}}
	if t, ok := p.Set["title"]; ok {
		ed.Set["title"] = intake.BibEscape(t)
	}
	if y, ok := p.Set["year"]; ok {
		ed.Set["year"] = y
	}
	if id, ok := p.Set["arxiv_id"]; ok {
		ed.Set["eprint"] = id
	}
	if v, ok := p.Set["venue"]; ok {
		// The venue goes where the published version's type puts it; with
		// no type known, where the entry keeps its venue now.
		field, typ := "journal", p.Kind
		if typ == "inproceedings" || (typ == "" && b.Fields["booktitle"] != "") {
			field = "booktitle"
		}
		if typ == "" && b.Type != "article" && b.Type != "inproceedings" {
			typ = map[string]string{"journal": "article", "booktitle": "inproceedings"}[field]
		}
		ed.Type = typ
		ed.Set[field] = intake.BibEscape(v)
		ed.Set[map[string]string{"journal": "booktitle", "booktitle": "journal"}[field]] = ""
		// What named the preprint's venue does not name the new one: a
		// publisher that was the preprint server, and howpublished, which
		// only a misc entry reads.
		if pub := b.Fields["publisher"]; strings.EqualFold(pub, "arxiv") || strings.EqualFold(pub, e.Venue) {
			ed.Set["publisher"] = ""
		}
		if typ != "" && typ != "misc" {
			ed.Set["howpublished"] = ""
		}
	}
	for _, n := range p.Notices {
		if n.Kind == corpus.NoticePublished && n.DOI != "" && !strings.EqualFold(b.Fields["doi"], n.DOI) {
			ed.Set["doi"] = intake.BibEscape(n.DOI)
		}
	}
	// An arXiv id that was said only where the edit writes (a journal of
	// "arXiv preprint arXiv:ID") is kept as eprint, so that the entry
	// still names its preprint as the row does.
	if id := b.ArxivID(); id != "" {
		after := corpus.BibEntry{Fields: maps.Clone(b.Fields)}
		maps.Copy(after.Fields, ed.Set)
		if after.ArxivID() == "" {
			ed.Set["eprint"], ed.Set["archiveprefix"] = id, "arXiv"
		}
	}
	return ed
}
