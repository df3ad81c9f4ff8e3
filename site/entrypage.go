package site

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/notice"
)

// This file queues the one page per entry and gathers its data.

func (r *renderer) entryPages() error {
	for _, ev := range r.entries {
		err := r.renderLater("entry", pageFile(ev.Href), func() (any, *Page) {
			ep := r.entryPage(ev)
			return ep, &ep.Page
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// cellPlace is an entry's reward × credit cell and its place in the
// cell's order of entries.
type cellPlace struct {
	cell *CellView
	at   int
}

// cellNeighbours are the entries an entry page lists from its cell: up
// to sameCellLimit entries around the entry at in es (the cell's
// entries, in the site's order), half before it and half after, more
// on one side where the cell ends on the other. Listing the cell's
// first entries instead made an edit of one of them change the page of
// every entry in the cell, hundreds of pages to render again for one
// row; around each entry, an edit or a move changes only the pages of
// the entries next to its old and its new place.
func cellNeighbours(es []*EntryView, at int) []*EntryView {
	n := min(sameCellLimit, len(es)-1)
	start := max(0, min(at-sameCellLimit/2, len(es)-1-n))
	out := make([]*EntryView, 0, n)
	for i := start; len(out) < n; i++ {
		if i != at {
			out = append(out, es[i])
		}
	}
	return out
}

// sameCellLimit is how many neighbours of its reward × credit cell an
// entry page lists; the rest are on the cell's page. Listing the whole cell
// made every entry page grow with the corpus and the site with its square
// (a cell can hold a third of all entries). Five are enough to browse on;
// ten made the median entry page of a large corpus 8.3 KB, a third 4 KB
// page of cache to write for each of 100,000 entries.
const sameCellLimit = 5

// entryPage gathers what an entry's page shows: the entry's own values,
// its audit, the sub-decisions naming it, the claims it takes part in and
// its reward × credit cell.
func (r *renderer) entryPage(ev *EntryView) *entryPage {
	e := ev.Entry
	ep := &entryPage{
		Page: r.newPage(ev.Href, ev.Title, "papers"),
		Key:  e.Key, Heading: e.Title, FirstAuthor: e.FirstAuthor, Affiliation: e.Affiliation,
		Year: e.YearText, Venue: e.Venue, ArxivID: e.ArxivID, ArxivURL: ev.ArxivURL,
		OneLiner: e.OneLiner, Notes: e.Notes, Bib: ev.Bib, Links: ev.Links, New: ev.New,
	}
	ep.Notices = noticeViews(e.Notes)
	root := ep.Root
	ep.Description = ev.OneLiner
	ep.Scholar = scholarMeta(e, r.c.BibFor(e))
	ep.LinkedData = scholarlyArticle(ep.Scholar, ev, ep.URL)
	ep.Scripts = []string{"assets/site.js"}
	ep.Edit, ep.Report = repoLinks(r.opt.Repository, ev.Entry, ep.URL)
	ep.BibHref, ep.ClaimsHref = root+"papers.bib", root+"claims/"
	// The breadcrumb names the entry's group in the list (the survey's
	// category); the facts list its verification, when the list has one.
	var cat *Tag
	if lf := r.v.ListField(); lf != nil {
		cat = ev.tag(lf.Name)
	}
	ep.Breadcrumb = r.sharedPiece("entry-breadcrumb", root, cat, func() any {
		crumb := struct {
			Papers   string
			Category *pageLink
		}{Papers: root + "papers/"}
		if cat != nil {
			crumb.Category = &pageLink{root + cat.Href, cat.Label}
		}
		return crumb
	})
	if r.field("verified") != nil {
		ver := ev.tag("verified")
		ep.Verified = r.sharedPiece("entry-verified", root, ver, func() any {
			if ver.Href == "" {
				return pageLink{"", ver.Label}
			}
			return pageLink{root + ver.Href, ver.Label}
		})
	}
	ep.Extra = r.extraColumns(e)
	if a := r.audits[ev.Key]; a != nil {
		av := &AuditView{StrictExplicitCredit: a.StrictExplicitCredit, AgreementNote: a.AgreementNote, AnnotatorNote: a.AnnotatorNote}
		for _, f := range corpus.AuditedFields() {
			label := f
			if fv := r.field(f); fv != nil {
				label = fv.Label
			}
			agree := a.Orig(f) == a.Annotated(f)
			av.Rows = append(av.Rows, AuditRow{Field: f, Label: label, Orig: a.Orig(f), Annotated: a.Annotated(f), Agree: agree, Disagree: !agree})
		}
		ep.Audit = av
	}
	for _, s := range r.subs {
		for _, se := range s.Entries {
			if se.Key == ev.Key {
				ep.Subdecisions = append(ep.Subdecisions, pageLink{root + s.Href, s.ID + ": " + s.Label})
				break
			}
		}
	}
	ep.TagItems = r.tagItems(root, ev.Tags).Join()
	ep.ClaimItems = r.claimItems(root, r.claimsOf[ev.Key]).Join()
	if place, ok := r.cellOf[ev.Key]; ok {
		cell := place.cell
		title, rowName, colName := cellWords(r.tables[0].Rows.Field, r.tables[0].Cols.Field)
		ep.Cell = &cellLinks{Href: root + cell.Href, Count: cell.Count, Title: title}
		ep.CellHead = r.sharedPiece("entry-cell-head", root, cell, func() any {
			return cellLinks{
				Row:  pageLink{root + cell.Row.Href, cell.Row.Label},
				Col:  pageLink{root + cell.Col.Href, cell.Col.Label},
				Href: root + cell.Href, RowName: rowName, ColName: colName,
			}
		})
		same := cellNeighbours(cell.Entries, place.at)
		ep.SameCellMore = len(cell.Entries) - 1 - len(same)
		ep.SameCellItems = r.neighbourItems(root, same).Join()
	}
	return ep
}

// extraColumns are the free-text columns of e's row, in its header's
// order, with their values: every column masrl neither reads nor
// controls. A column is labelled by its name, underscores as spaces.
func (r *renderer) extraColumns(e *corpus.Entry) []extraColumn {
	var out []extraColumn
	for _, col := range e.Columns() {
		if corpus.IsEntryColumn(col) || r.v.Field(col) != nil {
			continue
		}
		if v := e.Value(col); v != "" {
			label := strings.ReplaceAll(col, "_", " ")
			if first, size := utf8.DecodeRuneInString(label); size > 0 && first != utf8.RuneError {
				label = string(unicode.ToUpper(first)) + label[size:]
			}
			out = append(out, extraColumn{Label: label, Value: v})
		}
	}
	return out
}

// noticeLabels are the entry page's words for each kind of notice.
var noticeLabels = map[notice.Kind]string{
	notice.Published: "Published as",
	notice.Retracted: "Retracted",
	notice.Withdrawn: "Withdrawn",
	notice.Corrected: "Corrected",
	notice.Concern:   "Expression of concern",
}

// noticeViews reads the notices of an entry's notes, warnings first: a
// reader must see a retraction before the published version.
func noticeViews(notes string) []noticeView {
	var warn, pub []noticeView
	for _, n := range notice.Parse(notes) {
		v := noticeView{
			Class: "notice-" + strings.ReplaceAll(string(n.Kind), " ", "-"), Label: noticeLabels[n.Kind],
			Detail: n.Detail, DOI: n.DOI,
		}
		if n.DOI != "" && corpus.IsWebURL("https://doi.org/"+n.DOI) {
			v.Href = "https://doi.org/" + n.DOI
		}
		if n.Warning() {
			warn = append(warn, v)
		} else {
			pub = append(pub, v)
		}
	}
	return append(warn, pub...)
}
