package site

import (
	"cmp"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/masrl/masrl/corpus"
)

// This file prepares the views every page shares from the corpus: fields
// and terms with counts, entries with tags and links, sub-decisions,
// cross-tabs, exclusion records, and the site's order of entries.

// proseOrder puts the known markdown pages of data/pages first in the
// navigation; any other page follows in name order.
var proseOrder = []string{"about", "method", "contribute"}

// prepare derives the views every page shares: fields with counts, entries
// with tags and links, sub-decisions, cross-tabs and exclusion records.
func (r *renderer) prepare() error {
	r.site = &SiteInfo{
		Language: cmp.Or(r.opt.Language, "en"),
		Feed:     r.opt.BaseURL != "",
		Repo:     r.opt.Repository.URL,
		Survey:   r.survey != nil,
		Claims:   r.claimSet != nil,
		License:  r.opt.License,
		Traces:   r.opt.TracesPage(r.survey != nil),
	}
	r.site.Exclusions = r.exclusionPage()
	r.site.Audits = len(r.c.Audits) > 0
	// The survey's list: its title, paper, orchestration sub-decisions
	// and pages (data/ with the survey profile). Any other list gets none.
	surveyTitle := ""
	if r.survey != nil {
		surveyTitle = r.survey.ListTitle
		r.site.SurveyTitle, r.site.ArxivID = r.survey.Title, r.survey.ArxivID()
		r.site.ArxivURL = "https://arxiv.org/abs/" + r.survey.ArxivID()
		r.site.License = cmp.Or(r.site.License, r.survey.License)
	}
	r.site.Title = r.opt.TitleOr(surveyTitle)
	r.site.Nav = []NavItem{{"Home", "", "home"}, {"Papers", "papers/", "papers"}, {"Taxonomy", "taxonomy/", "taxonomy"}}
	if r.site.Survey {
		r.site.Nav = append(r.site.Nav, NavItem{"Orchestration", "orchestration/", "orchestration"})
	}
	r.site.Nav = append(r.site.Nav, NavItem{"Coverage", "coverage/", "coverage"})
	if r.exclusionPage() {
		r.site.Nav = append(r.site.Nav, NavItem{"Exclusions", "excluded/", "excluded"})
	}
	if r.site.Claims {
		r.site.Nav = append(r.site.Nav, NavItem{"Claims", "claims/", "claims"})
	}
	if r.site.Traces {
		r.site.Nav = append(r.site.Nav, NavItem{"Traces", tracesDir, "traces"})
	}
	if err := r.prepareViews(); err != nil {
		return err
	}
	// The entry pages' directories, one per entry, are made from now on,
	// on a goroutine of their own (Files.MakeDirs), in the order the
	// workers will write the pages: the rest of the build's preparation
	// and queueing runs on one CPU, and the other makes them meanwhile.
	files := make([]string, len(r.entries))
	for i, ev := range r.entries {
		files[i] = pageFile(ev.Href)
	}
	r.files.MakeDirs(files)
	if r.site.Survey {
		if err := r.prepareSurvey(); err != nil {
			return err
		}
	}
	if err := r.selectNav(); err != nil {
		return err
	}
	if err := r.prepareTheme(); err != nil {
		return err
	}

	return r.prepareRest()
}

// prepareSurvey reads what the survey profile adds from the data
// directory: the prose pages (after Traces in the navigation), the
// orchestration sub-decisions and the survey's citation.
func (r *renderer) prepareSurvey() error {
	names, err := proseNames(r.data)
	if err != nil {
		return err
	}
	r.proseNames = names
	r.proseSrc = make(map[string][]byte, len(names))
	for _, name := range names {
		src, err := fs.ReadFile(r.data, "pages/"+name+".md")
		if err != nil {
			return err
		}
		r.proseSrc[name] = src
		r.site.Nav = append(r.site.Nav, NavItem{markdownTitle(src, name), name + "/", name})
	}
	sd, err := loadSubdecisions(r.data)
	if err != nil {
		return err
	}
	for _, s := range sd.Subdecisions {
		sv := &SubdecisionView{
			ID: s.ID, Slug: s.Slug, Label: s.Label, Source: s.Source,
			Definition: s.Definition, Gap: s.Gap, Href: "orchestration/" + s.Slug + "/",
		}
		for _, se := range s.Entries {
			ev := r.byKey[se.Key]
			if ev == nil {
				// Another corpus than the survey's (a fixture, a fork) need
				// not hold every entry the survey names: say so, keep going.
				r.warnings = append(r.warnings, corpus.Diagnostic{
					Severity: corpus.Warning, Pos: corpus.Pos{File: "data/orchestration.yaml"}, Field: s.ID, Value: se.Key,
					Message: fmt.Sprintf("names %q, which is not a key of %s; listed without a link", se.Key, corpus.PapersFile),
				})
			}
			sv.Entries = append(sv.Entries, SubdecisionEntry{Key: se.Key, Entry: ev, Source: se.Source, Note: se.Note})
		}
		r.subs = append(r.subs, sv)
	}
	cite, ok := r.proseSrc["about"]
	if !ok {
		return fmt.Errorf("data/pages/about.md: %w", fs.ErrNotExist)
	}
	r.citation = citationBlock(string(cite))
	return nil
}

// prepareRest derives the coverage views, the spot-checks, the cells of
// entries and the exclusion records.
func (r *renderer) prepareRest() error {
	r.coverageViews = []*CoverageView{{ViewRef: ViewRef{Href: "coverage/"}}}
	counted := []*corpus.Corpus{r.c}
	if r.pool != nil {
		r.coverageViews = append(r.coverageViews, &CoverageView{ViewRef: ViewRef{Href: surveyCoverageDir, Survey: true}})
		counted = append(counted, r.pool.Restrict(r.c))
	}
	for i, cv := range r.coverageViews {
		if err := r.prepareTables(cv, counted[i]); err != nil {
			return err
		}
	}
	r.tables = r.coverageViews[0].Tables
	// Entry pages show the entry's reward × credit cell, the first table.
	r.audits = make(map[string]*corpus.Audit, len(r.c.Audits))
	for i := range r.c.Audits {
		if a := &r.c.Audits[i]; r.audits[a.Key] == nil { // the first, as corpus.Audit
			r.audits[a.Key] = a
		}
	}
	r.cellOf = map[string]cellPlace{}
	if len(r.tables) > 0 { // a list may declare no cross-tab
		for _, cell := range r.tables[0].cells {
			for i, ev := range cell.Entries {
				r.cellOf[ev.Key] = cellPlace{cell, i}
			}
		}
	}

	for i := range r.c.Excluded {
		x := &r.c.Excluded[i]
		l := Link{Text: x.URL, URL: x.URL, Web: corpus.IsWebURL(x.URL)}
		r.records = append(r.records, &ExclusionView{Exclusion: x, Link: l, Stage: *r.tag("stage", string(x.Stage))})
	}
	slices.SortStableFunc(r.records, func(a, b *ExclusionView) int { return cmp.Compare(a.RecordID, b.RecordID) })
	return nil
}

// exclusionPage reports whether the site has an exclusions page: when the
// list keeps an exclusion log, or its vocabulary declares a field of one
// (the survey's stage; the page is then empty, and check says so). A list
// that declares no such field and keeps no log has none.
func (r *renderer) exclusionPage() bool {
	return r.c.HasExcluded || len(r.v.FieldsOf(corpus.ExcludedFile)) > 0
}

// surveyCoverageDir is the coverage page of the survey's pool. A table's
// ID always holds a hyphen (ROWS-COLS), so no table of the whole list's
// page can take this directory.
const surveyCoverageDir = "coverage/survey/"

// prepareTables derives the cross-tabs of one coverage view from the
// corpus it counts, c, each cell with its entries and its page under the
// view's directory.
func (r *renderer) prepareTables(cv *CoverageView, c *corpus.Corpus) error {
	cv.Entries = len(c.Papers)
	for _, rc := range r.v.CrossTabs {
		x := c.CrossTab(r.v, rc[0], rc[1])
		if x == nil {
			return fmt.Errorf("vocabulary: cannot cross %s with %s", rc[0], rc[1])
		}
		rows, cols := r.field(rc[0]), r.field(rc[1])
		id := rc[0] + "-" + rc[1]
		tv := &TableView{
			ID: id, Title: rows.Label + " × " + cols.Label, Rows: rows, Cols: cols, View: cv,
			Href: cv.Href + id + "/", ColTotal: x.ColTotals, Total: x.Total, x: x,
			Multiple: x.Multiple,
		}
		head := &TableHead{ID: tv.ID, Title: tv.Title, Rows: rows.ref, Cols: cols.ref, View: &cv.ViewRef}
		for i, rt := range rows.Terms {
			line := TableRow{Term: rt, Total: x.RowTotals[i]}
			for j, ct := range cols.Terms {
				cell := &CellView{TableCell: TableCell{Row: rt.ref, Col: ct.ref, Count: x.Cells[i][j].Count}, Table: head}
				if cell.Count > 0 {
					cell.Href = tv.Href + path.Base(rt.Href) + "-" + path.Base(ct.Href) + "/"
					for _, k := range x.Cells[i][j].Keys {
						cell.Entries = append(cell.Entries, r.byKey[k])
					}
					sortEntries(cell.Entries)
					tv.cells = append(tv.cells, cell)
				}
				line.Cells = append(line.Cells, &cell.TableCell)
			}
			tv.Lines = append(tv.Lines, line)
		}
		cv.Tables = append(cv.Tables, tv)
	}
	return nil
}

// prepareViews derives the fields with their counts and the entries with
// their tags and links: the part the README list shares with the pages.
func (r *renderer) prepareViews() error {
	for _, f := range r.v.Fields {
		if !segmentPattern.MatchString(f.Name) {
			return fmt.Errorf("vocabulary: field name %q is not a path segment", f.Name)
		}
		fv := &FieldView{Field: f, Href: "taxonomy/" + f.Name + "/", Entries: f.File == corpus.PapersFile}
		fv.ref = &FieldRef{Name: f.Name, Label: f.Label, Href: fv.Href, Entries: fv.Entries}
		h := r.c.Histogram(r.v, f.Name)
		if r.hists == nil {
			r.hists = map[string]*corpus.Histogram{}
		}
		r.hists[f.Name] = h
		fv.Total = h.Total
		segs := valueSegments(f.Allowed())
		for i, t := range f.Values {
			cell := h.Cells[i]
			tv := &TermView{Term: t, Field: fv.ref, Href: fv.Href + segs[i] + "/", Count: cell.Count, keys: cell.Keys}
			tv.ref = &TermRef{Value: t.Value, Label: t.Label, Href: tv.Href}
			for _, a := range f.Ancestors(t.Value) {
				label := a
				if at := f.Term(a); at != nil && at.Label != "" {
					label = at.Label
				}
				tv.Trail = label + " › " + tv.Trail
			}
			fv.Terms = append(fv.Terms, tv)
			fv.IDs = fv.IDs || t.ID != ""
		}
		r.fields = append(r.fields, fv)
	}

	// The parts of a view that depend on its entry alone (links, date,
	// BibTeX) are made on every CPU; keys and tags, which share maps,
	// after them in order.
	views := make([]EntryView, len(r.c.Papers))
	keys := make([]corpus.ListKey, len(views))
	listed := r.v.FieldsOf(corpus.PapersFile)
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(views); i += workers {
				e := r.c.Papers[i]
				keys[i] = corpus.ListKeyOf(e)
				r.entryView(&views[i], r.c, i, listed)
			}
		})
	}
	wg.Wait()
	r.byKey = make(map[string]*EntryView, len(r.c.Papers))
	r.entries = make([]*EntryView, 0, len(views))
	for i := range views {
		ev := &views[i]
		e := ev.Entry
		if !isSafeKey(e.Key) {
			return fmt.Errorf("%s: key %q is not a lowercase slug; refusing to use it as a path", e.Pos("key"), e.Key)
		}
		if _, dup := r.byKey[e.Key]; dup {
			return fmt.Errorf("%s: key %q repeats", e.Pos("key"), e.Key)
		}
		for _, fv := range r.fields {
			if fv.Entries {
				for _, val := range e.Values(fv.Field) {
					ev.Tags = append(ev.Tags, r.tag(fv.Name, val))
				}
			}
		}
		ev.New = r.pool != nil && !r.pool.HasKey(e.Key)
		ev.item.New = ev.New
		r.entries = append(r.entries, ev)
		r.byKey[e.Key] = ev
	}
	rankEntries(r.entries, keys)
	r.addedFromHistory()

	return nil
}

// entryView makes the view of c's row i into ev: the parts that depend
// on the row alone (links, date, BibTeX), which prepareViews makes on
// every CPU and the first pages of an edit (quick.go) for the changed
// rows; listed are the fields of papers.csv.
func (r *renderer) entryView(ev *EntryView, c *corpus.Corpus, i int, listed []*corpus.Field) {
	e := c.Papers[i]
	*ev = EntryView{Entry: e, Href: "papers/" + e.Key + "/", Links: links(e.URLs), Date: entryDate(e), index: i, item: newItemView(e, listed, r.v.Links)}
	if corpus.IsArxivID(e.ArxivID) {
		ev.ArxivURL = "https://arxiv.org/abs/" + e.ArxivID
	}
	ev.item.Links = append(ev.item.Links, itemLinks(ev)...)
	if b := c.BibFor(e); b != nil {
		ev.Bib = strings.TrimSpace(b.Raw) + "\n"
		ev.bib = b
	}
}

// proseNames lists data/pages/*.md by name without extension: the known
// pages first, the rest sorted. A name that is not a plain path segment is
// an error, since it becomes the page's directory.
func proseNames(dfs fs.FS) ([]string, error) {
	paths, err := fs.Glob(dfs, "pages/*.md")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		name := strings.TrimSuffix(path.Base(p), ".md")
		if !segmentPattern.MatchString(name) {
			return nil, fmt.Errorf("data/%s: the page name must be a lowercase path segment", p)
		}
		names = append(names, name)
	}
	rank := func(n string) int {
		if i := slices.Index(proseOrder, n); i >= 0 {
			return i
		}
		return len(proseOrder)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	return names, nil
}

// citationBlock takes the survey's BibTeX from the about page's fenced
// bibtex block, so that the citation is written down once.
func citationBlock(md string) string {
	_, rest, ok := strings.Cut(md, "```bibtex\n")
	if !ok {
		return ""
	}
	block, _, _ := strings.Cut(rest, "```")
	return block
}

func (r *renderer) field(name string) *FieldView {
	for _, f := range r.fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// tag returns the Tag for a field's value; a value outside the vocabulary
// (possible only for an unchecked corpus) gets no page link.
// Entries with the same value share one Tag: at 100,000 entries a copy
// per entry was a tenth of the build's memory.
func (r *renderer) tag(field, value string) *Tag {
	k := [2]string{field, value}
	if t := r.tags[k]; t != nil {
		return t
	}
	fv := r.field(field)
	t := &Tag{Field: field, FieldLabel: fv.Label, Value: value, Label: value}
	if i := fv.Index(value); i >= 0 {
		tv := fv.Terms[i]
		t.Label, t.ID, t.Href = tv.Label, tv.ID, tv.Href
	}
	if r.tags == nil {
		r.tags = map[[2]string]*Tag{}
	}
	r.tags[k] = t
	return t
}

// links turns the url column's pieces into links; only web URLs are live.
func links(urls []string) []Link {
	out := make([]Link, 0, len(urls))
	for _, u := range urls {
		l := Link{Text: u, URL: u, Web: corpus.IsWebURL(u)}
		if l.Web {
			if p, err := url.Parse(u); err == nil {
				l.Text = strings.TrimPrefix(p.Host, "www.")
			}
		}
		out = append(out, l)
	}
	return out
}

// datePattern finds ISO dates in the notes column ("v7 2025-12-09").
var datePattern = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b`)

// addedFromHistory dates the entries of a list's own feed by the day they
// joined the list, from the corpus's git history (Options.AddedDates,
// which the command fills with corpus.AddedFromHistory), when the rows
// have no added column: the feed then says what is new in the list. The
// survey's site keeps its dates; a corpus outside a repository keeps
// entryDate's.
func (r *renderer) addedFromHistory() {
	if r.opt.AddedDates == nil || r.site.Survey || !r.site.Feed || len(r.entries) == 0 || slices.Contains(r.entries[0].Columns(), corpus.AddedColumn) {
		return
	}
	added, err := r.opt.AddedDates(r.c.KeyColumn())
	if err != nil || added == nil {
		return
	}
	for _, ev := range r.entries {
		if d, ok := added[ev.Key]; ok {
			ev.Date = d
		}
	}
}

// entryDate is the date the feed gives an entry: the row's added day
// when it has one, else the latest valid ISO date in its notes (the
// version date the curators recorded), else its date column's first day,
// else January 1 of its year. A date the calendar lacks (2025-02-30) is not valid: the feed
// would carry it as an invalid Atom date. Using data rather than the build
// time keeps the feed stable.
func entryDate(e *corpus.Entry) string {
	// The day the row joined the list, when it says: the feed tells
	// what is new in the list.
	if a := e.Value(corpus.AddedColumn); len(a) == len(time.DateOnly) {
		if _, ok := corpus.ParseDate(a); ok {
			return a
		}
	}
	best := ""
	for _, d := range datePattern.FindAllString(e.Notes, -1) {
		if _, err := time.Parse(time.DateOnly, d); err == nil && d > best {
			best = d
		}
	}
	if best != "" {
		return best
	}
	if t, ok := corpus.ParseDate(e.Value(corpus.DateColumn)); ok {
		return t.Format(time.DateOnly)
	}
	if e.Year > 0 && e.Year < 10000 {
		return fmt.Sprintf("%04d-01-01", e.Year)
	}
	return ""
}

// rankEntries numbers the entries in the order of every list of entries on
// the site, the paper list's (corpus.ListKey). Lists are then sorted by
// that number, which at 100,000 entries is much cheaper than comparing
// titles in every list.
func rankEntries(entries []*EntryView, keys []corpus.ListKey) {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return keys[a].Compare(keys[b]) })
	for rank, i := range order {
		entries[i].rank = rank
	}
}

// sortEntries orders entries as rankEntries numbered them.
func sortEntries(es []*EntryView) {
	slices.SortFunc(es, func(a, b *EntryView) int { return cmp.Compare(a.rank, b.rank) })
}

func (r *renderer) entriesOf(keys []string) []*EntryView {
	out := make([]*EntryView, 0, len(keys))
	for _, k := range keys {
		if ev := r.byKey[k]; ev != nil {
			out = append(out, ev)
		}
	}
	sortEntries(out)
	return out
}

// listedEntries are the entries the papers list shows under t, a value
// of the list's field: those with the value. In a multi-valued or nested
// field, only those whose first value it is, so that the list holds each
// entry once (its taxonomy page lists them all).
func (r *renderer) listedEntries(t *TermView) []*EntryView {
	es := r.entriesOf(t.keys)
	lf := r.v.ListField()
	if lf == nil || (!lf.Multiple && !lf.Nested()) {
		return es
	}
	return slices.DeleteFunc(es, func(e *EntryView) bool {
		vals := e.Values(lf)
		return len(vals) == 0 || vals[0] != t.Value
	})
}

// categoryGroups returns the terms of the list's field (the survey's
// category) in the paper list's order (corpus.ListGroups); none when the
// list declares no field.
func (r *renderer) categoryGroups() []*TermView {
	lf := r.v.ListField()
	if lf == nil {
		return nil
	}
	cat := r.field(lf.Name)
	var out []*TermView
	for _, name := range corpus.ListGroups(r.v) {
		if i := cat.Index(name); i >= 0 {
			out = append(out, cat.Terms[i])
		}
	}
	return out
}

// selectNav keeps the navigation items masrl.yaml's nav names, in its
// order; without nav every page the list publishes keeps its item. The
// items stay data (NavItem), so that each page still marks its own with
// aria-current. A name the list has no page for is an error that lists
// the pages it has.
func (r *renderer) selectNav() error {
	names := r.opt.NavNames()
	if len(names) == 0 {
		return nil
	}
	have := make(map[string]NavItem, len(r.site.Nav))
	var known []string
	for _, it := range r.site.Nav {
		have[it.Section] = it
		known = append(known, it.Section)
	}
	nav := make([]NavItem, 0, len(names))
	for _, n := range names {
		it, ok := have[n]
		if !ok {
			return fmt.Errorf("masrl.yaml: nav: the list has no %s page; its pages: %s", n, strings.Join(known, ", "))
		}
		nav = append(nav, it)
	}
	r.site.Nav = nav
	return nil
}
