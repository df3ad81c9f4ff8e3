package intake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Work is what masrl refresh and masrl links read from a Crossref work
// record (GET /works/DOI): where it was published and the notices that
// concern it.
type Work struct {
	DOI   string
	Title string
	Type  string // journal-article, proceedings-article, posted-content, ...
	Venue string // the container title: journal or proceedings
	Year  int    // of publication (published, else issued)
	// PreprintOf lists the DOIs of the published versions of a preprint
	// (relation is-preprint-of).
	PreprintOf []string
	// UpdatedBy are the notices about this work (a retraction, a
	// withdrawal, a correction: Crossref's updated-by); UpdateTo are the
	// works this record is itself a notice about (update-to).
	UpdatedBy []Update
	UpdateTo  []Update
}

// Update is one Crossref update relation.
type Update struct {
	Type   string // retraction, withdrawal, correction, erratum, expression_of_concern, ...
	DOI    string // the other record's DOI
	Date   string // YYYY-MM-DD, as precise as Crossref gives it
	Source string // who asserted it: publisher, retraction-watch
}

type crossrefEnvelope struct {
	Status      string          `json:"status"`
	MessageType string          `json:"message-type"`
	Message     crossrefMessage `json:"message"`
}

type crossrefDate struct {
	DateParts [][]json.Number `json:"date-parts"`
}

type crossrefUpdate struct {
	DOI     string       `json:"DOI"`
	Type    string       `json:"type"`
	Source  string       `json:"source"`
	Updated crossrefDate `json:"updated"`
}

type crossrefMessage struct {
	DOI            string       `json:"DOI"`
	Type           string       `json:"type"`
	Title          []string     `json:"title"`
	ContainerTitle []string     `json:"container-title"`
	Published      crossrefDate `json:"published"`
	Issued         crossrefDate `json:"issued"`
	Relation       map[string][]struct {
		IDType string `json:"id-type"`
		ID     string `json:"id"`
	} `json:"relation"`
	UpdateTo  []crossrefUpdate `json:"update-to"`
	UpdatedBy []crossrefUpdate `json:"updated-by"`
}

// Crossref fetches a work record from Crossref's REST API
// (CrossrefAPI/works/DOI). An unknown DOI, or one registered with another
// agency (DataCite's arXiv DOIs), is ErrNotFound.
func (c *Client) Crossref(ctx context.Context, doi string) (*Work, error) {
	api := c.CrossrefAPI
	if api == "" {
		api = DefaultCrossrefAPI
	}
	u := strings.TrimRight(api, "/") + "/works/" + (&url.URL{Path: doi}).EscapedPath()
	var w *Work
	err := c.get(ctx, "Crossref", u, jsonAnswer, func(body []byte) (err error) {
		w, err = parseCrossref(doi, body)
		return err
	})
	return w, err
}

func parseCrossref(doi string, body []byte) (*Work, error) {
	var env crossrefEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("Crossref answer for %s is not a work record (%v): %w", doi, err, ErrBadAnswer)
	}
	m := env.Message
	// Crossref says "no such work" with a 404; a 200 is a work record.
	if env.Status != "ok" || env.MessageType != "work" || m.DOI == "" {
		return nil, fmt.Errorf("Crossref answer for %s is not a work record (status %q, message-type %q, DOI %q; want ok, work and the DOI): %w", doi, env.Status, env.MessageType, m.DOI, ErrBadAnswer)
	}
	w := &Work{DOI: strings.ToLower(m.DOI), Type: m.Type}
	if len(m.Title) > 0 {
		w.Title = oneLine(m.Title[0])
	}
	if len(m.ContainerTitle) > 0 {
		w.Venue = oneLine(m.ContainerTitle[0])
	}
	w.Year = yearOf(m.Published)
	if w.Year == 0 {
		w.Year = yearOf(m.Issued)
	}
	for _, r := range m.Relation["is-preprint-of"] {
		if strings.EqualFold(r.IDType, "doi") && r.ID != "" {
			w.PreprintOf = append(w.PreprintOf, strings.ToLower(strings.TrimSpace(r.ID)))
		}
	}
	conv := func(us []crossrefUpdate) []Update {
		var out []Update
		for _, u := range us {
			if u.DOI == "" && u.Type == "" {
				continue
			}
			out = append(out, Update{Type: strings.ToLower(u.Type), DOI: strings.ToLower(u.DOI), Date: dateOf(u.Updated), Source: u.Source})
		}
		return out
	}
	w.UpdatedBy, w.UpdateTo = conv(m.UpdatedBy), conv(m.UpdateTo)
	return w, nil
}

func yearOf(d crossrefDate) int {
	if len(d.DateParts) == 0 || len(d.DateParts[0]) == 0 {
		return 0
	}
	y, err := d.DateParts[0][0].Int64()
	if err != nil {
		return 0
	}
	return int(y)
}

// dateOf renders date-parts as YYYY, YYYY-MM or YYYY-MM-DD.
func dateOf(d crossrefDate) string {
	if len(d.DateParts) == 0 {
		return ""
	}
	var parts []string
	for i, p := range d.DateParts[0] {
		n, err := p.Int64()
		if err != nil || i > 2 {
			break
		}
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%04d", n))
		} else {
			parts = append(parts, fmt.Sprintf("%02d", n))
		}
	}
	return strings.Join(parts, "-")
}
