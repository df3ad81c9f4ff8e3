package intake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// cslItem is the part of a CSL JSON record (doi.org content negotiation,
// answered by Crossref, DataCite or mEDRA) that intake reads. Crossref
// writes title and container-title as strings here; some agencies write
// arrays, which cslText accepts too.
type cslItem struct {
	Type           string          `json:"type"`
	Title          json.RawMessage `json:"title"`
	ContainerTitle json.RawMessage `json:"container-title"`
	Publisher      string          `json:"publisher"`
	DOI            string          `json:"DOI"`
	URL            string          `json:"URL"`
	Volume         json.RawMessage `json:"volume"`
	Issue          json.RawMessage `json:"issue"`
	Page           json.RawMessage `json:"page"`
	Author         []struct {
		Given       string `json:"given"`
		Family      string `json:"family"`
		Literal     string `json:"literal"`
		Name        string `json:"name"`
		Affiliation []struct {
			Name string `json:"name"`
		} `json:"affiliation"`
	} `json:"author"`
	Issued struct {
		DateParts [][]json.Number `json:"date-parts"`
	} `json:"issued"`
}

// DOI fetches a DOI's metadata as CSL JSON from doi.org (API/DOI with
// Accept: application/vnd.citationstyles.csl+json).
func (c *Client) DOI(ctx context.Context, doi string) (*Metadata, error) {
	api := c.DOIAPI
	if api == "" {
		api = DefaultDOIAPI
	}
	var m *Metadata
	err := c.get(ctx, "doi.org", strings.TrimRight(api, "/")+"/"+(&url.URL{Path: doi}).EscapedPath(), cslAnswer, func(body []byte) (err error) {
		m, err = parseCSL(doi, body)
		return err
	})
	return m, err
}

func parseCSL(doi string, body []byte) (*Metadata, error) {
	var it cslItem
	if err := json.Unmarshal(body, &it); err != nil {
		return nil, fmt.Errorf("doi.org answer for %s is not CSL JSON (%v): %w", doi, err, ErrBadAnswer)
	}
	m := &Metadata{
		Title:     oneLine(cslText(it.Title)),
		DOI:       strings.ToLower(strings.TrimSpace(it.DOI)),
		URL:       "https://doi.org/" + doi,
		Publisher: oneLine(it.Publisher),
		Volume:    cslText(it.Volume),
		Number:    cslText(it.Issue),
		Pages:     strings.ReplaceAll(cslText(it.Page), "-", "--"),
	}
	if m.Title == "" {
		// doi.org says "no such DOI" with a 404; a 200 is a record.
		return nil, fmt.Errorf("doi.org answer for %s is not a CSL record with a title: %w", doi, ErrBadAnswer)
	}
	if m.DOI == "" {
		m.DOI = doi
	}
	container := oneLine(cslText(it.ContainerTitle))
	switch it.Type {
	case "article-journal", "article":
		m.Kind, m.Journal = "article", container
	case "paper-conference", "chapter":
		m.Kind, m.Booktitle = "inproceedings", container
	default:
		m.Kind = "misc"
	}
	m.Venue = container
	if m.Venue == "" {
		m.Venue = m.Publisher
	}
	if len(it.Issued.DateParts) > 0 && len(it.Issued.DateParts[0]) > 0 {
		if y, err := it.Issued.DateParts[0][0].Int64(); err == nil {
			m.Year = int(y)
		}
	}
	for i, a := range it.Author {
		au := Author{Given: oneLine(a.Given), Family: oneLine(a.Family), Literal: oneLine(a.Literal + a.Name)}
		if au.Family == "" && au.Literal == "" {
			continue
		}
		m.Authors = append(m.Authors, au)
		if i == 0 && len(a.Affiliation) > 0 {
			m.Affiliation = oneLine(a.Affiliation[0].Name)
		}
	}
	return m, nil
}

// cslText reads a CSL value that is a string, a number or an array of
// strings (the first one).
func cslText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	var ss []string
	if json.Unmarshal(raw, &ss) == nil && len(ss) > 0 {
		return ss[0]
	}
	return ""
}
