package intake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// DefaultS2API is Semantic Scholar's Graph API, which masrl watch asks for
// the works that cite, and are cited by, each retained entry.
const DefaultS2API = "https://api.semanticscholar.org/graph/v1"

// Linked is a work that cites or is cited by an entry, as Semantic
// Scholar gives it. A preprint and its published version are one paper
// there, with both ids.
type Linked struct {
	PaperID string
	Title   string
	Year    int
	Date    string // publicationDate, YYYY-MM-DD, when known
	ArxivID string
	DOI     string
}

type s2Paper struct {
	PaperID     string         `json:"paperId"`
	Title       string         `json:"title"`
	Year        int            `json:"year"`
	Date        string         `json:"publicationDate"`
	ExternalIDs map[string]any `json:"externalIds"`
}

type s2Page struct {
	Offset int `json:"offset"`
	Next   int `json:"next"`
	// Data is a pointer so that an answer without it is told from an
	// empty page.
	Data *[]struct {
		Citing *s2Paper `json:"citingPaper"`
		Cited  *s2Paper `json:"citedPaper"`
	} `json:"data"`
}

// s2Fields are the fields masrl asks for: ids to match the corpus, title
// and dates to rank and filter.
const s2Fields = "paperId,title,year,publicationDate,externalIds"

// s2Window is how far Semantic Scholar lists a paper's citations or
// references: offset plus limit must stay below 10,000, so 9,999 works
// at most are ever read, however many cite the paper.
const s2Window = 9999

// s2PageSize is the most works one page holds.
const s2PageSize = 1000

// Citations returns the works that cite the paper (direction "citations")
// or that it cites ("references"); id is Semantic Scholar's form, e.g.
// "arXiv:2508.04652" or "DOI:10.1145/…". Pages of 1000 are followed up
// to maxPages, and never beyond the 9,999 works Semantic Scholar lists.
// more is true when it still offered a next page: the list is cut, and
// the caller says so.
func (c *Client) Citations(ctx context.Context, id, direction string, maxPages int) (out []Linked, more bool, err error) {
	if direction != "citations" && direction != "references" {
		return nil, false, fmt.Errorf("direction %q: want citations or references", direction)
	}
	api := c.S2API
	if api == "" {
		api = DefaultS2API
	}
	offset := 0
	for page := 0; ; page++ {
		limit := min(s2PageSize, s2Window-offset)
		if page >= maxPages || limit <= 0 {
			return out, true, nil
		}
		u, err := url.Parse(strings.TrimRight(api, "/") + "/paper/" + (&url.URL{Path: id}).EscapedPath() + "/" + direction)
		if err != nil {
			return nil, false, fmt.Errorf("--s2-api %q: %w", api, err)
		}
		q := u.Query()
		q.Set("fields", s2Fields)
		q.Set("limit", fmt.Sprint(limit))
		q.Set("offset", fmt.Sprint(offset))
		u.RawQuery = q.Encode()
		var linked []Linked
		var next int
		err = c.get(ctx, "Semantic Scholar", u.String(), jsonAnswer, func(body []byte) (err error) {
			linked, next, err = parseS2Page(body, direction)
			if err != nil {
				return fmt.Errorf("the answer of Semantic Scholar for %s %s is not a page of papers (%v): %w", id, direction, err, ErrBadAnswer)
			}
			return nil
		})
		if err != nil {
			return nil, false, err
		}
		out = append(out, linked...)
		if next <= offset {
			return out, false, nil
		}
		offset = next
	}
}

// LinkCounts returns how many works Semantic Scholar counts as citing the
// paper and as cited by it (its citationCount and referenceCount), so
// that a list cut short can say how much is missing.
func (c *Client) LinkCounts(ctx context.Context, id string) (citations, references int, err error) {
	api := c.S2API
	if api == "" {
		api = DefaultS2API
	}
	u, err := url.Parse(strings.TrimRight(api, "/") + "/paper/" + (&url.URL{Path: id}).EscapedPath())
	if err != nil {
		return 0, 0, fmt.Errorf("--s2-api %q: %w", api, err)
	}
	u.RawQuery = url.Values{"fields": {"citationCount,referenceCount"}}.Encode()
	err = c.get(ctx, "Semantic Scholar", u.String(), jsonAnswer, func(body []byte) error {
		var p struct {
			PaperID    string `json:"paperId"`
			Citations  *int   `json:"citationCount"`
			References *int   `json:"referenceCount"`
		}
		if err := json.Unmarshal(body, &p); err != nil || p.PaperID == "" || p.Citations == nil || p.References == nil {
			return fmt.Errorf("the answer of Semantic Scholar for %s is not a paper with citationCount and referenceCount: %w", id, ErrBadAnswer)
		}
		citations, references = *p.Citations, *p.References
		return nil
	})
	return citations, references, err
}

// parseS2Page reads one page of citations or references and the offset
// of the next page (0 on the last).
func parseS2Page(body []byte, direction string) ([]Linked, int, error) {
	var p s2Page
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, 0, err
	}
	if p.Data == nil {
		return nil, 0, errors.New(`no "data" list`)
	}
	var out []Linked
	for _, d := range *p.Data {
		sp := d.Citing
		if direction == "references" {
			sp = d.Cited
		}
		if sp == nil || (sp.PaperID == "" && oneLine(sp.Title) == "") {
			continue
		}
		l := Linked{PaperID: sp.PaperID, Title: oneLine(sp.Title), Year: sp.Year, Date: sp.Date}
		if v, ok := sp.ExternalIDs["ArXiv"].(string); ok {
			l.ArxivID = strings.TrimSpace(v)
		}
		if v, ok := sp.ExternalIDs["DOI"].(string); ok {
			l.DOI = strings.ToLower(strings.TrimSpace(v))
		}
		out = append(out, l)
	}
	return out, p.Next, nil
}
