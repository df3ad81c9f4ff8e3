package corpus

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// ParseArxivID reads an arXiv identifier as a contributor gives it: a bare
// new-style id (2508.04652, 2508.04652v2), the same with an "arXiv:"
// prefix, or an arxiv.org abs, pdf or html URL. It returns the id without
// version, as the arxiv_id column holds it, and whether s was one.
func ParseArxivID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 6 && strings.EqualFold(s[:6], "arxiv:") {
		s = s[6:]
	}
	if IsArxivID(s) {
		return baseArxivID(s), true
	}
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		if id, _ := arxivIDOfURL(u); id != "" {
			return id, true
		}
	}
	return "", false
}

// doiPattern is a DOI as Crossref recommends matching it: the 10. prefix,
// a registrant code, a slash and a suffix without white space.
var doiPattern = regexp.MustCompile(`^10\.[0-9]{4,9}/\S+$`)

// ParseDOI reads a DOI given bare (10.1000/xyz), with a "doi:" prefix or
// as a doi.org URL, and returns it lowercased (DOIs are case-insensitive)
// and whether s was one.
func ParseDOI(s string) (string, bool) {
	s = strings.TrimSpace(s)
	ls := strings.ToLower(s)
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"} {
		if strings.HasPrefix(ls, p) {
			ls = ls[len(p):]
			if p != "doi:" {
				if u, err := url.PathUnescape(ls); err == nil {
					ls = u
				}
			}
			break
		}
	}
	if doiPattern.MatchString(ls) {
		return ls, true
	}
	return "", false
}

// doiInText finds a DOI inside a URL or free text (a doi.org link, a
// "doi:" mention, a publisher URL that carries it).
var doiInText = regexp.MustCompile(`10\.[0-9]{4,9}/[^\s"<>;,]+`)

// Candidate is a paper about to be added, as duplicate detection sees it.
type Candidate struct {
	ArxivID string // without version
	DOI     string
	URLs    []string
	Title   string
}

// Duplicates returns why the candidate is already in the corpus, one line
// per record it matches, retained or excluded: the same arXiv id, DOI, URL
// or normalised title (the rules Check applies between the two files).
// Retained rows come first, in file order.
func (c *Corpus) Duplicates(cand Candidate) []string {
	id := baseArxivID(cand.ArxivID)
	doi := strings.ToLower(cand.DOI)
	title := normalizeTitle(cand.Title)
	urls := make([]string, 0, len(cand.URLs))
	for _, u := range cand.URLs {
		urls = append(urls, strings.TrimRight(strings.TrimSpace(u), "/"))
	}
	sameURL := func(us ...string) bool {
		return slices.ContainsFunc(us, func(u string) bool {
			u = strings.TrimRight(strings.TrimSpace(u), "/")
			return u != "" && slices.Contains(urls, u)
		})
	}
	hasDOI := func(texts ...string) bool {
		if doi == "" {
			return false
		}
		for _, t := range texts {
			for _, m := range doiInText.FindAllString(strings.ToLower(t), -1) {
				if strings.TrimRight(m, ".") == doi {
					return true
				}
			}
		}
		return false
	}
	var out []string
	for i := range c.Papers {
		e := c.Papers[i]
		bibDOI := ""
		if c.HasBib {
			if b := c.BibFor(e); b != nil {
				bibDOI = b.Fields["doi"]
			}
		}
		var why string
		switch {
		case id != "" && (baseArxivID(e.ArxivID) == id || slices.ContainsFunc(e.URLs, func(u string) bool { return findArxivID(u) == id })):
			why = "the same arXiv id " + id
		case hasDOI(append([]string{e.URL, e.Notes}, bibDOI)...) || (doi != "" && strings.EqualFold(strings.TrimSpace(bibDOI), doi)):
			why = "the same DOI " + doi
		case sameURL(e.URLs...):
			why = "the same URL"
		case title != "" && normalizeTitle(e.Title) == title:
			why = "the same title"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d: retained entry %q has %s", e.file, e.Line, e.Key, why))
	}
	for i := range c.Excluded {
		x := &c.Excluded[i]
		var why string
		switch {
		case id != "" && findArxivID(x.Identifier+" "+x.URL) == id:
			why = "the same arXiv id " + id
		case hasDOI(x.Identifier, x.URL):
			why = "the same DOI " + doi
		case sameURL(x.URL):
			why = "the same URL"
		case title != "" && normalizeTitle(x.ScreeningLabel) == title:
			why = "the same title"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s:%d: excluded record %s (%s: %s) has %s", x.file, x.Line, x.RecordID, x.Stage, x.ExclusionReason, why))
	}
	return out
}

// KeyTaken reports whether a key is in use by a retained row or names a
// BibTeX entry.
func (c *Corpus) KeyTaken(key string) bool {
	if c.Entry(key) != nil {
		return true
	}
	return slices.ContainsFunc(c.Bib, func(b BibEntry) bool { return b.Key == key })
}
