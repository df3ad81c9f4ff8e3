package site

import (
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// The head metadata of this file makes the site findable as what it is:
// Google Scholar indexes a page as a paper when its head carries the
// Highwire-style citation_* tags (its inclusion guidelines), and search
// engines read schema.org JSON-LD: a ScholarlyArticle on each entry page,
// a Dataset on the home page, which offers the corpus' downloads. The
// layout writes both (templates/layout.html, "scholar-meta" and the
// ld+json script, whose content html/template escapes as JSON).

// ScholarMeta is an entry page's citation_* tags.
type ScholarMeta struct {
	Title   string
	Authors []string // every author known: the BibTeX list, else the CSV's first author
	Date    string   // citation_publication_date: the year
	ArxivID string
	PDFURL  string // the arXiv PDF, when the entry is on arXiv
	DOI     string
}

// bibAuthors splits a BibTeX author list ("Liu, Shuo and Amato,
// Christopher and others") into names, without TeX braces and without
// BibTeX's "others", which names nobody.
func bibAuthors(field string) []string {
	var out []string
	for a := range strings.SplitSeq(corpus.BibText(field), " and ") {
		a = strings.Join(strings.Fields(a), " ")
		if a != "" && a != "others" {
			out = append(out, a)
		}
	}
	return out
}

// scholarMeta gathers an entry's citation tags from its row and, where it
// has one, its BibTeX entry.
func scholarMeta(e *corpus.Entry, bib *corpus.BibEntry) *ScholarMeta {
	m := &ScholarMeta{Title: e.Title, ArxivID: e.ArxivID}
	if bib != nil {
		m.Authors = bibAuthors(bib.Fields["author"])
		if m.ArxivID == "" {
			m.ArxivID = bib.ArxivID()
		}
		m.DOI = strings.TrimSpace(corpus.BibText(bib.Fields["doi"]))
	}
	if len(m.Authors) == 0 && strings.TrimSpace(e.FirstAuthor) != "" {
		m.Authors = []string{strings.TrimSpace(e.FirstAuthor)}
	}
	if e.Year > 0 {
		m.Date = strconv.Itoa(e.Year)
	}
	if m.ArxivID != "" {
		m.PDFURL = "https://arxiv.org/pdf/" + m.ArxivID
	}
	return m
}

// ldPerson is a schema.org Person.
type ldPerson struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// ldArticle is the schema.org ScholarlyArticle of an entry page. Fields
// are written in this order, empty ones left out.
type ldArticle struct {
	Context       string     `json:"@context"`
	Type          string     `json:"@type"`
	Headline      string     `json:"headline"`
	Name          string     `json:"name"`
	Author        []ldPerson `json:"author,omitempty"`
	DatePublished string     `json:"datePublished,omitempty"`
	Description   string     `json:"description,omitempty"`
	URL           string     `json:"url,omitempty"`
	SameAs        []string   `json:"sameAs,omitempty"`
	Identifier    []string   `json:"identifier,omitempty"`
	Keywords      []string   `json:"keywords,omitempty"`
	IsPartOf      *ldPeriod  `json:"isPartOf,omitempty"`
}

// ldPeriod names the venue an article appeared in.
type ldPeriod struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// scholarlyArticle is the JSON-LD of an entry page at pageURL.
func scholarlyArticle(m *ScholarMeta, ev *EntryView, pageURL string) *ldArticle {
	a := &ldArticle{
		Context: "https://schema.org", Type: "ScholarlyArticle",
		Headline: m.Title, Name: m.Title, DatePublished: m.Date,
		Description: ev.OneLiner, URL: pageURL,
	}
	for _, name := range m.Authors {
		a.Author = append(a.Author, ldPerson{Type: "Person", Name: name})
	}
	if m.ArxivID != "" {
		a.SameAs = append(a.SameAs, "https://arxiv.org/abs/"+m.ArxivID)
		a.Identifier = append(a.Identifier, "arXiv:"+m.ArxivID)
	}
	if m.DOI != "" {
		a.SameAs = append(a.SameAs, "https://doi.org/"+m.DOI)
		a.Identifier = append(a.Identifier, "doi:"+m.DOI)
	}
	for _, t := range ev.Tags {
		if t != nil && t.Label != "" {
			a.Keywords = append(a.Keywords, t.FieldLabel+": "+t.Label)
		}
	}
	if v := strings.TrimSpace(ev.Venue); v != "" {
		a.IsPartOf = &ldPeriod{Type: "Periodical", Name: v}
	}
	return a
}

// ldDataset is the schema.org Dataset the home page describes: the corpus,
// under CC0, one distribution per download.
type ldDataset struct {
	Context      string           `json:"@context"`
	Type         string           `json:"@type"`
	Name         string           `json:"name"`
	Description  string           `json:"description"`
	URL          string           `json:"url,omitempty"`
	License      string           `json:"license"`
	IsBasedOn    string           `json:"isBasedOn,omitempty"` // the survey's address; none for a list of one's own
	Distribution []ldDistribution `json:"distribution"`
}

// ldDistribution is one download of the dataset.
type ldDistribution struct {
	Type           string `json:"@type"`
	Name           string `json:"name"`
	EncodingFormat string `json:"encodingFormat"`
	ContentURL     string `json:"contentUrl"`
}

// downloadFormat is the media type of a download, by extension.
func downloadFormat(name string) string {
	switch {
	case strings.HasSuffix(name, ".csv"):
		return "text/csv"
	case strings.HasSuffix(name, ".json"):
		return "application/json"
	case strings.HasSuffix(name, ".bib"):
		return "application/x-bibtex"
	case strings.HasSuffix(name, ".xml"):
		return "application/atom+xml"
	}
	return "application/octet-stream"
}

// dataset is the JSON-LD of the corpus, offered as downloads (paths from
// the root), based on the survey at basedOn ("" for a list that is not
// the survey's); abs makes a path absolute under the base URL, or returns ""
// when the build has none, and a download's address stays relative then.
func dataset(name, description, basedOn string, downloads []Link, abs func(string) string) *ldDataset {
	d := &ldDataset{
		Context: "https://schema.org", Type: "Dataset", Name: name, Description: description,
		URL: abs(""), License: "https://creativecommons.org/publicdomain/zero/1.0/",
		IsBasedOn: basedOn,
	}
	for _, l := range downloads {
		u := abs(l.URL)
		if u == "" {
			u = l.URL
		}
		d.Distribution = append(d.Distribution, ldDistribution{
			Type: "DataDownload", Name: l.Text, EncodingFormat: downloadFormat(l.URL), ContentURL: u,
		})
	}
	return d
}
