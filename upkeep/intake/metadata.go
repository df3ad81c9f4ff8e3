// Package intake drafts a new corpus entry from a paper's public metadata:
// arXiv's query API (Atom) for arXiv ids, doi.org content negotiation (CSL
// JSON) for DOIs. It fetches and parses, and Add drafts the entry and the
// corpus files with it, refusing a paper the corpus already holds; it
// writes nothing: corpus.Edit judges the files and writes them.
package intake

import (
	"errors"
	"net/http"
	"strings"
	"time"
)

// Default service endpoints; masrl add's --arxiv-api and --doi-api replace
// them (tests point them at recorded responses).
const (
	DefaultArxivAPI = "https://export.arxiv.org/api/query"
	DefaultDOIAPI   = "https://doi.org"
	// DefaultCrossrefAPI and DefaultOpenAlexAPI are the bases masrl
	// refresh and masrl links ask (--crossref-api, --openalex-api).
	DefaultCrossrefAPI = "https://api.crossref.org"
	DefaultOpenAlexAPI = "https://api.openalex.org"
)

// ErrNotFound is returned when the service answers but knows no such paper.
var ErrNotFound = errors.New("no such paper")

// Author is one author's name as the service gives it.
type Author struct {
	Given, Family string
	// Literal is a name that is not split (an organisation, or arXiv's
	// one-string names before they are split).
	Literal string
}

// Metadata is what intake needs to draft a row and a BibTeX entry.
type Metadata struct {
	Title       string
	Authors     []Author
	Affiliation string // the first author's, when the service has it
	Year        int
	Venue       string // "arXiv", a journal or proceedings title
	URL         string
	ArxivID     string // without version
	Version     string // arXiv version, e.g. v2
	DOI         string
	// Kind is the BibTeX entry type: article, inproceedings or misc.
	Kind      string
	Journal   string // article
	Booktitle string // inproceedings
	Volume    string
	Number    string
	Pages     string
	Publisher string
}

// Client fetches metadata. The zero value uses the default endpoints and
// a client of NewHTTP made for each request.
type Client struct {
	// HTTP, when set, sends every request; NewHTTP makes the one masrl
	// uses (public addresses and the loopback APIs configured here only).
	HTTP *http.Client
	// Resolver resolves host names for the client NewHTTP makes
	// (net.DefaultResolver when nil; tests map names themselves).
	Resolver Resolver
	ArxivAPI string
	DOIAPI   string
	// CrossrefAPI is Crossref's REST API base (masrl asks
	// CrossrefAPI/works/DOI); OpenAlexAPI is OpenAlex's, asked for single
	// records only, and only with OpenAlexKey.
	CrossrefAPI string
	OpenAlexAPI string
	OpenAlexKey string
	// S2API is Semantic Scholar's Graph API base (masrl watch).
	S2API string

	// Cache, when set, keeps answers with their ETag between runs.
	Cache *Cache
	// Limiter, when set, spaces the requests to each host: Intervals
	// overrides the polite interval per host (DefaultInterval otherwise).
	// One Limiter is shared by every request of a run.
	Limiter   *Limiter
	Intervals map[string]time.Duration
	// Retries (default 3) is how often a 429 or 503 is retried; MaxWait
	// (default a minute) the longest Retry-After masrl waits for; Backoff
	// (default a second) the first wait when the service sends none.
	Retries int
	MaxWait time.Duration
	Backoff time.Duration
}

// http returns the client's HTTP client: HTTP, or one of NewHTTP that
// keeps no connection, since nothing would reuse or close it.
func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	h := c.NewHTTP(0)
	h.Transport.(*http.Transport).DisableKeepAlives = true
	return h
}

// FirstAuthor renders the first author as the first_author column wants
// it: "Last, First", or an organisation's name as it is.
func (m *Metadata) FirstAuthor() string {
	if len(m.Authors) == 0 {
		return ""
	}
	return m.Authors[0].Display()
}

// Display renders a name as "Family, Given".
func (a Author) Display() string {
	switch {
	case a.Family != "" && a.Given != "":
		return a.Family + ", " + a.Given
	case a.Family != "":
		return a.Family
	}
	return a.Literal
}

// splitName splits a one-string personal name ("Shuo Liu", "Jan van der
// Berg") into given names and family name: lowercase particles before
// the last word belong to the family name.
func splitName(s string) Author {
	words := strings.Fields(s)
	if len(words) < 2 {
		return Author{Literal: strings.Join(words, " ")}
	}
	i := len(words) - 1
	for i > 1 && isParticle(words[i-1]) {
		i--
	}
	return Author{Given: strings.Join(words[:i], " "), Family: strings.Join(words[i:], " ")}
}

func isParticle(w string) bool {
	switch w {
	case "van", "von", "der", "den", "de", "del", "della", "di", "da", "la", "le", "du", "dos", "das", "ter", "ten":
		return true
	}
	return false
}
