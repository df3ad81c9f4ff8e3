package site

import (
	"html/template"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/site/chart"
)

// Page is what every template sees: the frame's data. Page types embed it
// and add their own fields, so a template reads .Title and .Entry alike.
type Page struct {
	Title string
	// HeadTitle is the document's title: Title, and the site's title
	// but on the home page (frame fills it in).
	HeadTitle   string
	Description string
	// File is the output file, slash-separated ("papers/magrpo/index.html").
	File string
	// Root leads from this page back to the site root ("../../"); every
	// internal link is Root followed by a site path.
	Root string
	// URL is the page's absolute address under the base URL.
	URL string
	// Section names the navigation item to mark as current.
	Section string
	// Charts tells the layout to load the chart scripts; only pages that
	// draw charts pay for them.
	Charts bool
	// Scripts lists extra site scripts (paths from the root) the page needs.
	Scripts []string
	// Styles lists extra style sheets (paths from the root): the charts'
	// and the search's, only where they are used.
	Styles []string
	Site   *SiteInfo
	// Scholar is an entry page's citation_* tags for Google Scholar
	// (scholar.go); nil on other pages.
	Scholar *ScholarMeta
	// LinkedData is the page's schema.org JSON-LD (scholar.go), any value
	// encoding/json writes; nil: none.
	LinkedData any
	// NavItems is the main navigation's items, rendered once per root and
	// section.
	NavItems template.HTML
	// Top and Bottom are the layout's parts around the content that only
	// depend on the fields above (items.go).
	Top, Bottom template.HTML
}

// Frame returns p itself, for the layout's head and foot: html/template
// finds a field of p there by a scan of Page's fields alone, where a
// field of the Page embedded in a page's data costs a scan of the
// data's fields and a search through its embedded structs, each action
// (the layout reads about twenty a page).
func (p *Page) Frame() *Page { return p }

// SiteInfo is shared by every page.
type SiteInfo struct {
	Title    string
	Language string // the pages' BCP 47 language tag
	// Feed is true when feed.xml is published: it needs the base URL.
	Feed bool
	// Repo is the repository the list is kept in (masrl.yaml's
	// repository.url); "" when not configured.
	Repo string
	// Nav is the main navigation's items (masrl.yaml's nav, or every page
	// the list has); a template may range over it, and NavItems is it
	// rendered with nav-item.
	Nav []NavItem
	// ExtraCSS and Logo are paths from the root of the list's own style
	// sheet and logo (masrl.yaml's extra_css and logo), "" for none;
	// Favicon is the icon's path, FaviconType its link's type attribute
	// (type="image/png"), from a fixed table, or "".
	ExtraCSS, Logo, Favicon string
	FaviconType             template.HTMLAttr
	// Survey is true for the survey's own list (the survey profile): the
	// pages then speak of the survey, its claims, pool, orchestration
	// sub-decisions and prose pages. A list of one's own gets none of it.
	Survey bool
	// Claims is true when the list has claims (the survey's, or its own
	// claims.yaml): the claims page exists.
	Claims bool
	// SurveyTitle and ArxivID are the survey's (data/survey-pool.yaml);
	// empty without the survey profile.
	SurveyTitle string
	ArxivID     string
	ArxivURL    string
	// License is the SPDX identifier of the list's licence (masrl.yaml's
	// license, else the survey profile's), which the footer names; ""
	// claims none.
	License string
	// Traces is true when the traces page is published (the survey
	// profile, or masrl.yaml's traces: true): the navigation and the home
	// page then point to it.
	Traces bool
	// Exclusions is true for a list with an exclusion log: the pages then
	// speak of retained entries and screening stages.
	Exclusions bool
	// Audits is true when entries carry a spot-check audit.
	Audits bool
}

// NavItem is one entry of the main navigation.
type NavItem struct {
	Label, Href, Section string
}

// Tag is one controlled value of an entry, with the page that explains it.
type Tag struct {
	Field      string
	FieldLabel string
	Value      string
	Label      string
	ID         string // the survey's ID, e.g. R7
	Href       string // from the root; empty for a value outside the vocabulary
}

// Link is one URL from the data. Only web URLs are rendered as links;
// anything else is shown as text.
type Link struct {
	Text string
	URL  string
	Web  bool
}

// EntryView is an entry as pages show it.
type EntryView struct {
	*corpus.Entry
	Href     string // "papers/KEY/"
	Links    []Link
	Tags     []*Tag // the controlled fields, in vocabulary order; shared
	ArxivURL string
	Bib      string // the BibTeX source, "" when there is none
	Date     string // YYYY-MM-DD the feed uses
	// New is true for an entry added since the survey: not in its pinned
	// pool (data/survey-pool.yaml).
	New bool
	// bib is the BibTeX entry Bib is the source of, nil when there is
	// none; its fields are parsed from that source alone, so Bib's hash
	// covers it (the entry page's citation tags read it).
	bib *corpus.BibEntry `hash:"-"`
	// index and rank order the lists; a page shows only the order
	// (incremental.go).
	index int `hash:"-"` // position in papers.csv order
	rank  int `hash:"-"` // position in the site's order of entries (rankEntries)
	// item is what the entry's list items show (items.go), but for the
	// link, which depends on the listing page.
	item itemView
}

// Tag returns the entry's tag for a field, or a zero Tag.
func (e *EntryView) Tag(field string) Tag { return *e.tag(field) }

// tag returns the entry's shared tag for a field, or a new zero Tag.
func (e *EntryView) tag(field string) *Tag {
	for _, t := range e.Tags {
		if t.Field == field {
			return t
		}
	}
	return &Tag{}
}

// FieldView is a controlled field with its values and counts.
type FieldView struct {
	*corpus.Field
	Href  string // "taxonomy/FIELD/"
	Terms []*TermView
	// Entries is true for papers.csv fields, false for excluded.csv ones
	// (whose values count exclusion records).
	Entries bool
	Total   int
	// IDs is true when a value of the field has an ID (the survey's R1
	// to R8): the field's table then has a column for them.
	IDs bool
	ref *FieldRef // what pages about one of its values show of it
}

// FieldRef is what a page about one value of a field shows of the field
// (a term page's breadcrumb, a cell page's labels). A value's view points
// back to its field through it rather than to the FieldView: a page's
// data then reaches no other value of the field, so that the page's key
// (incremental.go) changes with what the page prints, not with every
// count of the field.
type FieldRef struct {
	Name, Label, Href string
	Entries           bool // FieldView.Entries
}

// TermView is one vocabulary value with its count.
type TermView struct {
	*corpus.Term
	Field *FieldRef
	Href  string // "taxonomy/FIELD/VALUE/"
	Count int
	// Trail names the value's ancestors in a nested field, root first
	// ("Multi-agent › Role-playing › "): the field's table shows the
	// tree, and Count rolls up the value's descendants. "" for a root.
	Trail string
	// keys are the entries with the value, which its pages list: the
	// pages' data holds those entries themselves, so the keys are never
	// printed.
	keys []string `hash:"-"`
	ref  *TermRef // what a coverage cell shows of it
}

// TermRef is what a coverage cell shows of its row's and column's
// values: their names and pages, not their counts.
type TermRef struct {
	Value, Label, Href string
}

// Gap reports a value no row uses: the survey's open cells.
func (t *TermView) Gap() bool { return t.Count == 0 }

// AuditView is the spot-check result of one entry.
type AuditView struct {
	Rows                 []AuditRow
	StrictExplicitCredit string
	AgreementNote        string
	AnnotatorNote        string
}

// AuditRow compares the original and the second reader's tag of one field.
type AuditRow struct {
	Field, Label, Orig, Annotated string
	Agree                         bool
	Disagree                      bool // !Agree, for the template
}

// SubdecisionView is one orchestration sub-decision (O1-O5).
type SubdecisionView struct {
	ID, Slug, Label, Source, Definition, Gap string
	Href                                     string
	Entries                                  []SubdecisionEntry
}

// SubdecisionEntry is an entry the survey names for a sub-decision.
type SubdecisionEntry struct {
	Key    string
	Entry  *EntryView // nil when the corpus has no such entry
	Source string
	Note   string
}

// CoverageView is one set of coverage tables and the entries it counts:
// the whole current list (coverage/) or, with a pool file, the survey's
// pool (coverage/survey/), which leaves out the entries added since.
type CoverageView struct {
	ViewRef
	Entries int // the entries the tables count
	Tables  []*TableView
}

// ViewRef is what a cell's page shows of its coverage view.
type ViewRef struct {
	Href   string // "coverage/" or "coverage/survey/"
	Survey bool   // counts the survey's pool only
}

// TableView is one coverage cross-tab.
type TableView struct {
	ID string // "reward_type-credit_granularity", the anchor on its view's page
	// Multiple is set when a field of the table is multi-valued: the
	// page says an entry counts in each pair of its values.
	Multiple bool
	Title    string
	Rows     *FieldView
	Cols     *FieldView
	View     *CoverageView
	Href     string // "coverage/ID/" or "coverage/survey/ID/"
	Lines    []TableRow
	ColTotal []int
	Total    int
	Chart    *chart.Figure // the table's heatmap, nil without charts
	// x is what Lines, ColTotal, Total and Chart are made of.
	x *corpus.CrossTab `hash:"-"`
	// cells are the table's non-empty cells with their entries, for
	// their pages (cellPage), row by row; the table shows their
	// TableCell, in Lines.
	cells []*CellView `hash:"-"`
}

// TableRow is one row of a cross-tab.
type TableRow struct {
	Term  *TermView
	Cells []*TableCell
	Total int
}

// TableCell is a cell as its table shows it: its count and its page.
type TableCell struct {
	Row   *TermRef
	Col   *TermRef
	Count int
	Href  string // "coverage/ID/ROW-COL/", "" for an empty cell
}

// CellView is a cell with its entries: its page's data, and an entry
// page's cell. It leads to its table's heading, not to the table: a
// cell's page then reaches no other cell's entries.
type CellView struct {
	TableCell
	Table   *TableHead
	Entries []*EntryView
}

// TableHead is what a cell's page shows of its table.
type TableHead struct {
	ID, Title  string
	Rows, Cols *FieldRef
	View       *ViewRef
}

// ExclusionView is one record of the exclusion log.
type ExclusionView struct {
	*corpus.Exclusion
	Link  Link
	Stage Tag
}

type homePage struct {
	Page
	Retained, Excluded, Candidates, SpotChecked int
	// ExclusionLog is set when the list keeps an excluded.csv.
	ExclusionLog bool
	Fields       []*FieldView
	Claims       int
	ClaimCounts  []StatusCount
	Citation     string
	Downloads    []Link
	Figures      *HomeCharts // nil without charts
	// Survey and Added place the list against the survey's pool: "84 in
	// the survey + N added since". Pool is false without a pool file.
	Pool          bool
	Survey, Added int
	// Release is the newest release (nil: none) and Upkeep the dates the
	// list was last refreshed and its links checked (empty: unknown).
	Release *ReleaseView
	Upkeep  release.Upkeep
	// Lede is masrl.yaml's description, shown under a list's title (the
	// survey's list has its own); Intro the corpus's intro.md, rendered by
	// goldmark with raw HTML off. Both empty: the default lede.
	Lede  string
	Intro template.HTML
}

type papersPage struct {
	Page
	Groups     []paperGroup // the categories on this page, with this page's entries
	Categories []*categoryLink
	// GroupedBy names the list's field, lower case: "category" in the
	// survey's list.
	GroupedBy   string
	Total       int
	SearchIndex string // the search index's URL from this page
	Pager       *Pager // nil: the whole list is on one page
}

type paperGroup struct {
	Term    *TermView
	Entries []*EntryView // on this page
	Count   int          // in the whole list
	List    EntryList
	// Level is the heading's (headingLevel): 2 for a root value, one
	// more per ancestor in a nested field; its entries' titles are one
	// level below it.
	Level int
}

// entryPage is entry.html's data, the one page per entry. Every value it
// prints is a plain field made before the page is rendered (entryInput.page
// in entrypage.go): links already start with the page's root, and lists shared
// with other pages are rendered pieces, so that the template does no
// method calls and as few actions as the markup allows. html/template
// pays a reflective escaper call per action, and this page is rendered
// once per entry.
type entryPage struct {
	Page
	Key, Heading, FirstAuthor, Affiliation, Year, Venue string
	ArxivID, ArxivURL, OneLiner, Notes, Bib             string
	Links                                               []Link
	// Breadcrumb, Verified and CellHead are pieces many entry pages
	// share (entry-breadcrumb, entry-verified and entry-cell-head of
	// entry.html), rendered once per root and value.
	Breadcrumb, Verified, CellHead template.HTML
	// BibHref and ClaimsHref are papers.bib and the claims page, from
	// this page.
	BibHref, ClaimsHref string
	Audit               *AuditView
	Subdecisions        []pageLink
	// TagItems, ClaimItems and SameCellItems are the lists of the
	// entry's tags, the claims it takes part in and up to sameCellLimit
	// other entries of its cell around it (cellNeighbours), rendered
	// once per piece (items.go); ClaimItems and SameCellItems are ""
	// when empty.
	TagItems, ClaimItems, SameCellItems template.HTML
	Cell                                *cellLinks
	// SameCellMore counts the cell's other entries SameCellItems omits.
	SameCellMore int
	// Edit and Report link the entry's row in the repository and a new
	// issue about it (repo.go); "" without a repository.
	Edit, Report string
	// New marks an entry added since the survey (EntryView.New).
	New bool
	// Extra are the row's free-text columns: those that are neither
	// read by masrl nor controlled (none in the survey's list).
	Extra []extraColumn
	// Notices are what masrl refresh recorded in the notes: the published
	// version and any retraction or correction, shown under the title.
	Notices []noticeView
	// Survey is what the survey says of the entry: its reference number
	// and where it names it; nil but for the survey's own list.
	Survey *EntrySurvey
}

// extraColumn is a free-text column of a list's papers.csv with the
// entry's value.
// URL is set for a link column (corpus.LinkColumn): the value is then
// shown as a link.
type extraColumn struct{ Label, Value, URL string }

// noticeView is one notice as the entry page shows it.
type noticeView struct {
	Class  string // notice-published, notice-retracted, ...
	Label  string // "Published as", "Retracted", ...
	Detail string // the venue and year, or the notice's date
	DOI    string
	Href   string // https://doi.org/DOI, "" without a DOI
}

// pageLink is a link from a page: Href starts with the page's root.
type pageLink struct {
	Href, Label string
}

// cellLinks are the links of an entry page's reward × credit section.
type cellLinks struct {
	Row, Col pageLink
	Href     string
	Count    int
	// Title heads the section; RowName and ColName name the two fields
	// in running text (cellWords).
	Title, RowName, ColName string
}

// cellWords are the words of an entry page's cell section for the first
// cross-tab of the list: the survey's own for reward × credit, else the
// fields' labels in lower case.
func cellWords(rows, cols *corpus.Field) (title, rowName, colName string) {
	if rows.Name == "reward_type" && cols.Name == "credit_granularity" {
		return "Same reward and credit", "reward type", "credit granularity"
	}
	rowName, colName = strings.ToLower(rows.Label), strings.ToLower(cols.Label)
	return "Same " + rowName + " and " + colName, rowName, colName
}

type taxonomyPage struct {
	Page
	Fields []*FieldView
}

type fieldPage struct {
	Page
	Field *FieldView
	Chart *chart.Figure // the field's bar chart, nil without charts
}

type termPage struct {
	Page
	Term    *TermView
	Entries []*EntryView
	List    EntryList // Entries as the page lists them
	Records []*ExclusionView
	Pager   *Pager // nil: all the term's entries are on one page
	// Feed is the value's Atom feed, relative to the site root ("" for
	// none: a site without a feed, or the survey's).
	Feed string
}

type orchestrationPage struct {
	Page
	// Subdecisions are the rows of the page's table: each counts its
	// entries but does not hold them, so that an edit of their rows
	// leaves the page's key (incremental.go) alone.
	Subdecisions []subdecisionRow
}

// subdecisionRow is a sub-decision as the orchestration page lists it.
type subdecisionRow struct {
	ID, Label, Href string
	Entries         int
}

type subdecisionPage struct {
	Page
	Sub *SubdecisionView
}

type coveragePage struct {
	Page
	View *CoverageView
	// Other is the page's sibling view as the page links it, nil without
	// a pool file: its tables, whose counts the page does not show, are
	// left out of its data. Survey is the size of the survey's pool as
	// the corpus holds it, Added the entries added since.
	Other         *coverageLink
	Survey, Added int
	Paper         string // the paper version the pool belongs to
}

// coverageLink is a coverage view as the other view's page links it.
type coverageLink struct {
	Href    string
	Entries int // CoverageView.Entries
}

type cellPage struct {
	Page
	Cell  *CellView
	List  EntryList // Cell.Entries (this page's) as the page lists them
	Pager *Pager    // nil: all the cell's entries are on one page
}

type excludedPage struct {
	Page
	Records []*ExclusionView
	Stages  *FieldView
	Total   int
	Flow    *chart.Figure // the screening flow, nil without charts
}

type prosePage struct {
	Page
	Body template.HTML
	// Repo is the list's repository, which the contributing page links;
	// "" on other pages or without one.
	Repo string
}
