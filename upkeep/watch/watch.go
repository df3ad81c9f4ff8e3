// Package watch finds candidate papers the way the survey built its pool
// (§2): works that cite, or are cited by, several retained entries. It asks
// Semantic Scholar's Graph API for each entry's citations and references
// (list queries there are free; OpenAlex charges for them), merges a
// preprint with its published version (Semantic Scholar gives one paper
// both ids), drops everything the corpus already retains or excluded (the
// duplicate rules of masrl add), and ranks the rest by how many retained
// entries they connect to. The maintainers decide in a triage file: an
// accepted candidate is added with masrl add, a rejected one goes into
// excluded.csv with its stage and reason, so it is never proposed again.
package watch

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
)

// Candidate is a work connected to retained entries.
type Candidate struct {
	Title   string
	Year    int
	Date    string
	ArxivID string
	DOI     string
	// Keys are the retained entries it cites or is cited by, sorted.
	Keys []string
}

// URL is the candidate's link: arXiv's abs page, else doi.org.
func (c *Candidate) URL() string {
	switch {
	case c.ArxivID != "":
		return "https://arxiv.org/abs/" + c.ArxivID
	case c.DOI != "":
		return "https://doi.org/" + c.DOI
	}
	return ""
}

// ID is what masrl add takes for the candidate.
func (c *Candidate) ID() string {
	if c.ArxivID != "" {
		return c.ArxivID
	}
	return c.DOI
}

// Options tune Find.
type Options struct {
	Client *intake.Client
	// Min is how many retained entries a candidate must connect to
	// (default 2).
	Min int
	// Since keeps candidates published on or after a YYYY-MM-DD date
	// (their year, when Semantic Scholar has no date); "" keeps all.
	Since string
	// MaxPages bounds the pages of 1000 asked per entry and direction
	// (default DefaultMaxPages). A list cut by it, or by the 9,999 works
	// Semantic Scholar lists at most, is a warning with the count read.
	MaxPages int
}

// DefaultMaxPages is as many pages of 1000 as Semantic Scholar lists
// (9,999 works): a much-cited entry (PPO, ReAct) is read as far as the
// service allows, not cut at a smaller number of masrl's own.
const DefaultMaxPages = 10

// s2ID is the Semantic Scholar id of an entry: its arXiv id, else a DOI
// its url column names; "" when it has neither.
func s2ID(e *corpus.Entry) string {
	if corpus.IsArxivID(e.ArxivID) {
		return "arXiv:" + e.ArxivID
	}
	for _, u := range corpus.SplitURLs(e.URL) {
		if d, ok := corpus.ParseDOI(u); ok {
			return "DOI:" + d
		}
	}
	return ""
}

// Find returns the ranked candidates: most connections first, then the
// newest, then by title. An entry Semantic Scholar does not know is a
// warning; a failing service is an error.
func Find(ctx context.Context, c *corpus.Corpus, opt Options) ([]Candidate, corpus.Diagnostics, error) {
	minimum, pages := cmp.Or(opt.Min, 2), cmp.Or(opt.MaxPages, DefaultMaxPages)
	var ds corpus.Diagnostics
	var all []*Candidate
	byID := map[string]*Candidate{}
	find := func(l intake.Linked) *Candidate {
		for _, k := range idsOf(l) {
			if c := byID[k]; c != nil {
				return c
			}
		}
		return nil
	}
	for i := range c.Papers {
		e := c.Papers[i]
		id := s2ID(e)
		if id == "" {
			continue
		}
		// counts are Semantic Scholar's totals for the entry, asked once
		// and only when a list is cut (empty until then).
		counts := map[string]int{}
		for _, dir := range []string{"citations", "references"} {
			linked, more, err := opt.Client.Citations(ctx, id, dir, pages)
			if err != nil {
				if errors.Is(err, intake.ErrNotFound) {
					ds = append(ds, corpus.Diagnostic{Severity: corpus.Warning, Pos: e.Pos("key"), Field: "key", Value: e.Key,
						Message: fmt.Sprintf("Semantic Scholar does not know %s: its citations are not searched", id)})
					break
				}
				return nil, ds, err
			}
			if more {
				if len(counts) == 0 {
					cites, refs, err := opt.Client.LinkCounts(ctx, id)
					if err != nil && !errors.Is(err, intake.ErrNotFound) {
						return nil, ds, err
					}
					counts["citations"], counts["references"] = cites, refs
				}
				ds = append(ds, corpus.Diagnostic{Severity: corpus.Warning, Pos: e.Pos("key"), Field: "key", Value: e.Key,
					Message: truncated(id, dir, len(linked), counts[dir], pages)})
			}
			for _, l := range linked {
				cand := find(l)
				if cand == nil {
					cand = &Candidate{}
					all = append(all, cand)
				}
				cand.merge(l)
				for _, k := range idsOf(l) {
					byID[k] = cand
				}
				if !slices.Contains(cand.Keys, e.Key) {
					cand.Keys = append(cand.Keys, e.Key)
				}
			}
		}
	}
	var out []Candidate
	for _, cand := range all {
		if len(cand.Keys) < minimum || !cand.since(opt.Since) {
			continue
		}
		if len(c.Duplicates(corpus.Candidate{ArxivID: cand.ArxivID, DOI: cand.DOI, URLs: []string{cand.URL()}, Title: cand.Title})) > 0 {
			continue // retained or excluded already
		}
		slices.Sort(cand.Keys)
		out = append(out, *cand)
	}
	slices.SortStableFunc(out, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(len(b.Keys), len(a.Keys)), cmp.Compare(b.Year, a.Year), strings.Compare(a.Title, b.Title), strings.Compare(a.ID(), b.ID()))
	})
	return out, ds, nil
}

// truncated says that a list of citations or references was cut: how
// many works were read of how many Semantic Scholar counts (total, 0 when
// unknown), and what would read more.
func truncated(id, dir string, n, total, pages int) string {
	what := dir
	if dir == "citations" {
		what = "citing works"
	}
	of := "more"
	if total > n {
		of = strconv.Itoa(total)
	}
	if pages*1000 >= 9999 {
		return fmt.Sprintf("Semantic Scholar counts %s %s of %s; its API lists %d (9,999 at most): the others are not searched", of, what, id, n)
	}
	return fmt.Sprintf("Semantic Scholar counts %s %s of %s; %d were read (--max-pages %d, 1000 a page; %d reads all its API lists): the others are not searched", of, what, id, n, pages, DefaultMaxPages)
}

// idsOf are the keys a linked work is known by.
func idsOf(l intake.Linked) []string {
	var out []string
	if l.ArxivID != "" {
		out = append(out, "arxiv:"+l.ArxivID)
	}
	if l.DOI != "" {
		out = append(out, "doi:"+l.DOI)
	}
	if l.PaperID != "" {
		out = append(out, "s2:"+l.PaperID)
	}
	if len(out) == 0 && l.Title != "" {
		out = append(out, "title:"+strings.ToLower(strings.Join(strings.Fields(l.Title), " ")))
	}
	return out
}

// merge fills what the candidate lacks from another record of it.
func (c *Candidate) merge(l intake.Linked) {
	c.Title = cmp.Or(c.Title, l.Title)
	c.Year = cmp.Or(c.Year, l.Year)
	c.Date = cmp.Or(c.Date, l.Date)
	c.ArxivID = cmp.Or(c.ArxivID, l.ArxivID)
	c.DOI = cmp.Or(c.DOI, l.DOI)
}

func (c *Candidate) since(date string) bool {
	if date == "" {
		return true
	}
	if c.Date != "" {
		return c.Date >= date
	}
	y, _ := strconv.Atoi(date[:4])
	return c.Year >= y
}

// TriageColumns are the columns of the triage file.
var TriageColumns = []string{"decision", "connections", "title", "year", "arxiv_id", "doi", "url", "connected_keys"}

// WriteTriageFile writes the candidates' triage CSV (WriteTriage) to
// file, the one masrl watch asks the maintainers to fill in; the file is
// written only once the whole CSV is made.
func WriteTriageFile(file string, cands []Candidate) error {
	var b bytes.Buffer
	if err := WriteTriage(&b, cands); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}

// WriteTriage writes the candidates as a triage CSV with an empty
// decision column for the maintainers: "add" or "exclude STAGE: reason".
// The titles are remote text and the file is opened in a spreadsheet, so
// its cells are defused (defused).
func WriteTriage(w io.Writer, cands []Candidate) error {
	cw := csv.NewWriter(w)
	cw.Write(TriageColumns)
	for _, c := range cands {
		year := ""
		if c.Year > 0 {
			year = strconv.Itoa(c.Year)
		}
		cw.Write(defused([]string{"", strconv.Itoa(len(c.Keys)), c.Title, year, c.ArxivID, c.DOI, c.URL(), strings.Join(c.Keys, " ")}))
	}
	cw.Flush()
	return cw.Error()
}
