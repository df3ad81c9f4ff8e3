package intake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// OpenAlexWork is what masrl refresh reads from an OpenAlex work: the
// published location of a preprint OpenAlex has merged with its version
// of record, and its retraction flag.
type OpenAlexWork struct {
	Retracted bool
	// Published is the first location that is a publisher's version at a
	// journal or conference, or nil.
	Published *OpenAlexLocation
}

// OpenAlexLocation is one place a work is published.
type OpenAlexLocation struct {
	Venue string
	DOI   string // without https://doi.org/
	URL   string
	Year  int
	// Kind is the BibTeX type of the source: article for a journal,
	// inproceedings for a conference.
	Kind string
}

type openAlexWork struct {
	ID              string `json:"id"`
	PublicationYear int    `json:"publication_year"`
	IsRetracted     bool   `json:"is_retracted"`
	Locations       []struct {
		Version        string `json:"version"`
		LandingPageURL string `json:"landing_page_url"`
		Source         *struct {
			DisplayName string `json:"display_name"`
			Type        string `json:"type"`
		} `json:"source"`
	} `json:"locations"`
	DOI string `json:"doi"`
}

// OpenAlex looks up one work by DOI (OpenAlexAPI/works/doi:DOI): a
// single-record look-up, which OpenAlex does not charge for, with the key
// as api_key. Without a key it is not asked: the caller checks.
func (c *Client) OpenAlex(ctx context.Context, doi string) (*OpenAlexWork, error) {
	api := c.OpenAlexAPI
	if api == "" {
		api = DefaultOpenAlexAPI
	}
	u, err := url.Parse(strings.TrimRight(api, "/") + "/works/doi:" + doi)
	if err != nil {
		return nil, fmt.Errorf("--openalex-api %q: %w", api, err)
	}
	q := u.Query()
	q.Set("api_key", c.OpenAlexKey)
	u.RawQuery = q.Encode()
	var w *OpenAlexWork
	err = c.get(ctx, "OpenAlex", u.String(), jsonAnswer, func(body []byte) (err error) {
		w, err = parseOpenAlex(doi, body)
		return err
	})
	return w, err
}

// parseOpenAlex reads a work record.
func parseOpenAlex(doi string, body []byte) (*OpenAlexWork, error) {
	var w openAlexWork
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("OpenAlex answer for %s is not a work (%v): %w", doi, err, ErrBadAnswer)
	}
	// OpenAlex says "no such work" with a 404; a 200 is a work.
	if w.ID == "" {
		return nil, fmt.Errorf("OpenAlex answer for %s is not a work (no id): %w", doi, ErrBadAnswer)
	}
	out := &OpenAlexWork{Retracted: w.IsRetracted}
	for _, l := range w.Locations {
		if l.Version != "publishedVersion" || l.Source == nil || (l.Source.Type != "journal" && l.Source.Type != "conference") {
			continue
		}
		loc := &OpenAlexLocation{Venue: oneLine(l.Source.DisplayName), URL: l.LandingPageURL, Year: w.PublicationYear, Kind: "article"}
		if l.Source.Type == "conference" {
			loc.Kind = "inproceedings"
		}
		if d, ok := strings.CutPrefix(strings.ToLower(l.LandingPageURL), "https://doi.org/"); ok {
			loc.DOI = d
		}
		out.Published = loc
		break
	}
	return out, nil
}
