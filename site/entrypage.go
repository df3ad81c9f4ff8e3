package site

import (
	"html/template"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// This file queues the one page per entry and gathers its data, in two
// steps. entryInput gathers what the page reads of the build's views
// (its entry, its audit, sub-decisions, claims and cell neighbours, and
// the context every entry page shares) and is what an incremental build
// keys the page by; page makes the page's data from that input alone,
// only for a page that is rendered. Most of an entry page (its head's
// citation tags and JSON-LD, its notices, links, tags and pieces) is a
// function of its entry's view, which the key holds as one hash
// (hashEntries): making all of it for each of 10,000 entries and walking
// it, only to find the key unchanged, cost more than rendering the few
// pages an edit changes.

func (r *renderer) entryPages() error {
	ctx := r.entryContext()
	if r.inc != nil {
		r.inc.share(ctx)
	}
	// The links of a cell's section are the same on the pages of all its
	// entries (at the same depth): made, and hashed, once.
	cells := map[rootCell]*cellLinks{}
	for _, ev := range r.entries {
		var links *cellLinks
		place, ok := r.cellOf[ev.Key]
		if ok {
			root := rootFor(pageFile(ev.Href))
			if links = cells[rootCell{root, place.cell}]; links == nil {
				links = r.cellLinks(root, place.cell)
				cells[rootCell{root, place.cell}] = links
				if r.inc != nil {
					r.inc.share(links)
				}
			}
		}
		err := r.renderLater("entry", pageFile(ev.Href),
			func() any { return r.entryInput(ev, ctx, place, links) },
			func(input any) (any, *Page) {
				in := input.(entryInput)
				ep := in.page(r)
				return ep, &ep.Page
			})
		if err != nil {
			return err
		}
	}
	// Their directories are being made since prepare (prepareViews).
	return nil
}

// rootCell names a cell's section links on the pages at root.
type rootCell struct {
	root string
	cell *CellView
}

// cellLinks are the links of an entry page's cell section, for a page
// at root.
func (r *renderer) cellLinks(root string, cell *CellView) *cellLinks {
	title, rowName, colName := cellWords(r.tables[0].Rows.Field, r.tables[0].Cols.Field)
	return &cellLinks{
		Row:  pageLink{root + cell.Row.Href, cell.Row.Label},
		Col:  pageLink{root + cell.Col.Href, cell.Col.Label},
		Href: root + cell.Href, Count: cell.Count,
		Title: title, RowName: rowName, ColName: colName,
	}
}

// entryPage is the data of ev's page, made in both steps at once.
func (r *renderer) entryPage(ev *EntryView) *entryPage {
	var links *cellLinks
	place, ok := r.cellOf[ev.Key]
	if ok {
		links = r.cellLinks(rootFor(pageFile(ev.Href)), place.cell)
	}
	in := r.entryInput(ev, r.entryContext(), place, links)
	return in.page(r)
}

// entryContext is what every entry page of a build reads besides its
// own input: the site, its base URL and repository, and the vocabulary's
// words. An incremental build hashes it once (incremental.share).
type entryContext struct {
	site *SiteInfo
	// baseURL and base make the pages' absolute addresses (resolveURL).
	baseURL string
	base    *url.URL
	repo    siteconfig.Repository
	// listField names the list's field (the survey's category), which
	// the breadcrumb shows; "" when the list has none.
	listField string
	// verified is true when the list has a verified field, which the
	// facts show.
	verified bool
	// labels are the fields' labels by name, for the audit's rows.
	labels map[string]string
}

// entryContext gathers the build's entry context; the views are ready.
func (r *renderer) entryContext() *entryContext {
	ctx := &entryContext{
		site: r.site, baseURL: r.opt.BaseURL, base: r.base, repo: r.opt.Repository,
		verified: r.field("verified") != nil, labels: make(map[string]string, len(r.fields)),
	}
	if lf := r.v.ListField(); lf != nil {
		ctx.listField = lf.Name
	}
	for _, f := range r.fields {
		ctx.labels[f.Name] = f.Label
	}
	return ctx
}

// entryInput is what an entry page is made from (page), and what an
// incremental build hashes for its key: everything page reads is here,
// so that the key covers everything the page can print. The key holds
// the entry as its view's hash (hashEntries) and the context as the hash
// taken once a build (incremental.share), a few words for each. The
// other views are read here, into the few values the page shows of them.
type entryInput struct {
	entry *EntryView
	ctx   *entryContext
	// root leads from the page back to the site's root.
	root  string
	audit *corpus.Audit
	// extra are the row's free-text columns; the header that names
	// them is not in the entry's hash.
	extra        []extraColumn
	subdecisions []pageLink
	claimItems   template.HTML
	// survey is what the survey says of the entry (its reference and
	// mentions), nil but for the survey's own list.
	survey *EntrySurvey
	// cell are the links of the entry's reward × credit cell, shared
	// by its entries' pages (and hashed once, incremental.share), nil
	// when it has none; neighbours are the entries its page lists from
	// it (cellNeighbours), and more counts the others.
	cell       *cellLinks
	neighbours []*EntryView
	more       int
}

// entryInput gathers ev's page input from the views: place is its cell
// (a zero place when it has none) and links the cell section's links.
func (r *renderer) entryInput(ev *EntryView, ctx *entryContext, place cellPlace, links *cellLinks) entryInput {
	root := rootFor(pageFile(ev.Href))
	in := entryInput{entry: ev, ctx: ctx, root: root, audit: r.audits[ev.Key], extra: r.extraColumns(ev.Entry)}
	for _, s := range r.subs {
		for _, se := range s.Entries {
			if se.Key == ev.Key {
				in.subdecisions = append(in.subdecisions, pageLink{root + s.Href, s.ID + ": " + s.Label})
				break
			}
		}
	}
	in.claimItems = r.claimItems(root, r.claimsOf[ev.Key]).Join()
	in.survey = r.surveyOf[ev.Key]
	if place.cell != nil {
		in.cell = links
		in.neighbours = cellNeighbours(place.cell.Entries, place.at)
		in.more = len(place.cell.Entries) - 1 - len(in.neighbours)
	}
	return in
}

// entryPieces renders the pieces an entry page joins, and its
// navigation, caching them for the build (items.go). They are functions
// of the templates, which every page's key covers, and of their
// arguments; the navigation also of the site's (entryContext.site).
// Nothing else of the renderer may reach an entry page's data: page
// reads the renderer only through these.
type entryPieces interface {
	navItems(root, section string) template.HTML
	sharedPiece(name, root string, of any, data func() any) template.HTML
	tagItems(root string, ts []*Tag) pieces
	neighbourItems(root string, es []*EntryView) pieces
}

// page makes the entry page's data from its input: the entry's own
// values, its audit, the sub-decisions naming it, the claims it takes
// part in and its reward × credit cell.
func (in *entryInput) page(pc entryPieces) *entryPage {
	ev, ctx, root := in.entry, in.ctx, in.root
	e := ev.Entry
	ep := &entryPage{
		Page: pageAt(ctx.site, ev.Href, ev.Title, "papers", resolveURL(ctx.baseURL, ctx.base, ev.Href), pc.navItems),
		Key:  e.Key, Heading: e.Title, FirstAuthor: e.FirstAuthor, Affiliation: e.Affiliation,
		Year: e.YearText, Venue: e.Venue, ArxivID: e.ArxivID, ArxivURL: ev.ArxivURL,
		OneLiner: e.OneLiner, Notes: e.Notes, Bib: ev.Bib, Links: ev.Links, New: ev.New,
		Extra: in.extra, Subdecisions: in.subdecisions, ClaimItems: in.claimItems, Survey: in.survey,
	}
	ep.Notices = noticeViews(e.Notes)
	ep.Description = ev.OneLiner
	ep.Scholar = scholarMeta(e, ev.bib)
	ep.LinkedData = scholarlyArticle(ep.Scholar, ev, ep.URL)
	ep.Scripts = []string{"assets/site.js"}
	ep.Edit, ep.Report = repoLinks(ctx.repo, ev.Entry, ep.URL)
	ep.BibHref, ep.ClaimsHref = root+"papers.bib", root+"claims/"
	// The breadcrumb names the entry's group in the list (the survey's
	// category); the facts list its verification, when the list has one.
	var cat *Tag
	if ctx.listField != "" {
		cat = ev.tag(ctx.listField)
	}
	ep.Breadcrumb = pc.sharedPiece("entry-breadcrumb", root, cat, func() any {
		crumb := struct {
			Papers   string
			Category *pageLink
		}{Papers: root + "papers/"}
		if cat != nil {
			crumb.Category = &pageLink{root + cat.Href, cat.Label}
		}
		return crumb
	})
	if ctx.verified {
		ver := ev.tag("verified")
		ep.Verified = pc.sharedPiece("entry-verified", root, ver, func() any {
			if ver.Href == "" {
				return pageLink{"", ver.Label}
			}
			return pageLink{root + ver.Href, ver.Label}
		})
	}
	if a := in.audit; a != nil {
		av := &AuditView{StrictExplicitCredit: a.StrictExplicitCredit, AgreementNote: a.AgreementNote, AnnotatorNote: a.AnnotatorNote}
		for _, f := range corpus.AuditedFields() {
			label, ok := ctx.labels[f]
			if !ok {
				label = f
			}
			agree := a.Orig(f) == a.Annotated(f)
			av.Rows = append(av.Rows, AuditRow{Field: f, Label: label, Orig: a.Orig(f), Annotated: a.Annotated(f), Agree: agree, Disagree: !agree})
		}
		ep.Audit = av
	}
	ep.TagItems = pc.tagItems(root, ev.Tags).Join()
	if in.cell != nil {
		// The section's head is shared by the pages of the cell at the
		// same depth: it leaves out the count and the title.
		head := *in.cell
		head.Count, head.Title = 0, ""
		ep.Cell = in.cell
		ep.CellHead = pc.sharedPiece("entry-cell-head", root, head, func() any { return head })
		ep.SameCellMore = in.more
		ep.SameCellItems = pc.neighbourItems(root, in.neighbours).Join()
	}
	return ep
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
			var href string
			if l := r.v.LinkColumn(col); l != nil {
				// A link column: labelled by the vocabulary, a link when
				// it is one (check refuses anything else).
				label = l.Label
				if corpus.IsWebURL(v) {
					href = v
				}
			}
			if first, size := utf8.DecodeRuneInString(label); size > 0 && first != utf8.RuneError {
				label = string(unicode.ToUpper(first)) + label[size:]
			}
			out = append(out, extraColumn{Label: label, Value: v, URL: href})
		}
	}
	return out
}

// noticeLabels are the entry page's words for each kind of notice.
var noticeLabels = map[corpus.NoticeKind]string{
	corpus.NoticePublished: "Published as",
	corpus.NoticeRetracted: "Retracted",
	corpus.NoticeWithdrawn: "Withdrawn",
	corpus.NoticeCorrected: "Corrected",
	corpus.NoticeConcern:   "Expression of concern",
}

// noticeViews reads the notices of an entry's notes, warnings first: a
// reader must see a retraction before the published version.
func noticeViews(notes string) []noticeView {
	var warn, pub []noticeView
	for _, n := range corpus.ParseNotices(notes) {
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
