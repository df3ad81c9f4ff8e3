// Package templbench measures the entry page, the one page the site
// renders once per entry, with html/template (templates/entry.html inside
// templates/layout.html, read from the repository) and with templ
// (entry.templ, the same markup), on the same data: the measurement
// behind README's choice of html/template. Nothing here builds the site.
//
//	cd bench/templ && go run github.com/a-h/templ/cmd/templ@v0.3.977 generate && go test -bench . -count 10 | tee out.txt
package templbench

import "html/template"

// Page mirrors site.Page: the fields layout.html prints.
type Page struct {
	Title, HeadTitle, Description, URL, Root string
	Top, Bottom                              template.HTML
}

// Link is a URL from the data; only web URLs are links.
type Link struct {
	Text, URL string
	Web       bool
}

// PageLink is a link from the page.
type PageLink struct{ Href, Label string }

// CellLinks is the entry's reward × credit cell.
type CellLinks struct {
	Href  string
	Count int
}

// AuditView is present to satisfy entry.html; the measured page has none.
type AuditView struct {
	Rows []struct {
		Label, Orig, Annotated string
		Agree, Disagree        bool
	}
	AgreementNote, StrictExplicitCredit, AnnotatorNote string
}

// EntryPage mirrors site's entryPage, which embeds Page as this does.
type EntryPage struct {
	Page
	Key, Heading, FirstAuthor, Affiliation, Year, Venue string
	ArxivID, ArxivURL, OneLiner, Notes, Bib             string
	Links                                               []Link
	Breadcrumb, Verified, CellHead                      template.HTML
	BibHref, ClaimsHref                                 string
	Audit                                               *AuditView
	Subdecisions                                        []PageLink
	TagItems, ClaimItems, SameCellItems                 template.HTML
	Cell                                                *CellLinks
	SameCellMore                                        int
}
