package intake

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// atomNS is the Atom namespace, the one of the arXiv API's feed.
const atomNS = "http://www.w3.org/2005/Atom"

// arxivFeed is the part of the arXiv API's Atom answer that intake reads.
type arxivFeed struct {
	XMLName xml.Name
	Total   int          `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	Entries []arxivEntry `xml:"http://www.w3.org/2005/Atom entry"`
}

type arxivEntry struct {
	ID        string `xml:"http://www.w3.org/2005/Atom id"`
	Title     string `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
	Published string `xml:"http://www.w3.org/2005/Atom published"`
	Authors   []struct {
		Name        string   `xml:"http://www.w3.org/2005/Atom name"`
		Affiliation []string `xml:"http://arxiv.org/schemas/atom affiliation"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	JournalRef string `xml:"http://arxiv.org/schemas/atom journal_ref"`
	DOI        string `xml:"http://arxiv.org/schemas/atom doi"`
}

// Arxiv fetches an arXiv paper's metadata from the query API
// (API?id_list=ID). id has no version.
func (c *Client) Arxiv(ctx context.Context, id string) (*Metadata, error) {
	api := c.ArxivAPI
	if api == "" {
		api = DefaultArxivAPI
	}
	u, err := url.Parse(api)
	if err != nil {
		return nil, fmt.Errorf("--arxiv-api %q: %w", api, err)
	}
	q := u.Query()
	q.Set("id_list", id)
	u.RawQuery = q.Encode()
	var m *Metadata
	err = c.get(ctx, "arXiv API", u.String(), atomAnswer, func(body []byte) (err error) {
		m, err = parseArxiv(id, body)
		return err
	})
	return m, err
}

// parseArxiv reads the Atom answer for one id. The API answers an unknown
// id with an empty feed, and a malformed one with an entry titled "Error"
// whose id is under /api/errors: both are ErrNotFound. Anything that is
// not an Atom feed (an HTML page, another XML document) is ErrBadAnswer:
// an empty feed is the only way arXiv says it knows no such paper.
func parseArxiv(id string, body []byte) (*Metadata, error) {
	var f arxivFeed
	if err := xml.Unmarshal(body, &f); err != nil {
		return nil, fmt.Errorf("arXiv API answer for %s is not Atom (%v): %w", id, err, ErrBadAnswer)
	}
	if f.XMLName.Space != atomNS || f.XMLName.Local != "feed" {
		return nil, fmt.Errorf("arXiv API answer for %s is <%s> in namespace %q, want an Atom <feed> (%s): %w", id, f.XMLName.Local, f.XMLName.Space, atomNS, ErrBadAnswer)
	}
	var e *arxivEntry
	for i := range f.Entries {
		if strings.Contains(f.Entries[i].ID, "/api/errors") {
			return nil, fmt.Errorf("arXiv %s: %s: %w", id, oneLine(f.Entries[i].Summary), ErrNotFound)
		}
		if got := absID(f.Entries[i].ID); got == id {
			e = &f.Entries[i]
		}
	}
	if e == nil || oneLine(e.Title) == "" {
		return nil, fmt.Errorf("arXiv has no paper %s: %w", id, ErrNotFound)
	}
	m := &Metadata{
		Title:   oneLine(e.Title),
		ArxivID: id,
		Version: versionOf(e.ID),
		URL:     "https://arxiv.org/abs/" + id,
		Venue:   "arXiv",
		Kind:    "article",
		Journal: "arXiv preprint arXiv:" + id,
		DOI:     strings.ToLower(strings.TrimSpace(e.DOI)),
	}
	if jr := oneLine(e.JournalRef); jr != "" {
		m.Venue = jr
	}
	if t, err := time.Parse(time.RFC3339, strings.TrimSpace(e.Published)); err == nil {
		m.Year = t.Year()
	} else if len(id) >= 2 {
		// A new-style id starts with the two-digit year of submission.
		if yy, err := strconv.Atoi(id[:2]); err == nil {
			m.Year = 2000 + yy
		}
	}
	for i, a := range e.Authors {
		m.Authors = append(m.Authors, splitName(oneLine(a.Name)))
		if i == 0 && len(a.Affiliation) > 0 {
			m.Affiliation = oneLine(a.Affiliation[0])
		}
	}
	return m, nil
}

// absID returns the id of an entry's abs URL without version:
// http://arxiv.org/abs/2606.01234v2 -> 2606.01234.
func absID(s string) string {
	i := strings.LastIndex(s, "/abs/")
	if i < 0 {
		return ""
	}
	s = strings.TrimSpace(s[i+len("/abs/"):])
	if i := strings.LastIndexByte(s, 'v'); i > 0 {
		return s[:i]
	}
	return s
}

// versionOf returns the version suffix of an abs URL (v2), or "".
func versionOf(s string) string {
	if i := strings.LastIndexByte(s, 'v'); i > 0 && i > strings.LastIndexByte(s, '/') {
		return s[i:]
	}
	return ""
}

// oneLine collapses the white space the Atom feed wraps titles with.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
