// Package refresh finds what happened to the corpus's papers since they
// were read: a preprint published at a venue (arXiv's journal_ref and DOI,
// Crossref's is-preprint-of relation, OpenAlex's published location) and
// the retractions, withdrawals, corrections and expressions of concern
// publishers record in Crossref (updated-by). It proposes each as new
// values of papers.csv's venue, year, url and notes columns; Apply writes
// them. The services are asked through intake.Client, the client masrl
// add uses, with its cache, rate limits and Retry-After handling.
package refresh

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
)

// Proposal is the change refresh proposes for one entry: the columns'
// new values (only those that change) and where the information came
// from.
type Proposal struct {
	Key     string
	Pos     corpus.Pos        // the entry's row
	Set     map[string]string // column → new value
	Notices []corpus.Notice   // the notices added to notes
	Sources []string          // "arXiv 2501.00001 journal_ref", "Crossref 10.5555/x updated-by"
	// Kind is the BibTeX type of the published version the venue names
	// (article, inproceedings), from its Crossref record; empty when no
	// record says.
	Kind string
}

// Columns returns the columns the proposal changes, in papers.csv order.
func (p *Proposal) Columns() []string {
	var out []string
	for _, c := range corpus.PaperColumns() {
		if _, ok := p.Set[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// Result is what Propose found: the proposals in file order and the
// findings that are not changes (an id a service does not know).
type Result struct {
	Proposals []Proposal
	Findings  corpus.Diagnostics
}

// ServiceError is a service that failed (unreachable, an error status,
// still rate-limited after the retries): refresh stops, since proposals
// from half the services would look complete.
type ServiceError struct{ Err error }

func (e *ServiceError) Error() string { return e.Err.Error() }
func (e *ServiceError) Unwrap() error { return e.Err }

// Options says which services to ask.
type Options struct {
	Client *intake.Client
	// OpenAlex enables OpenAlex look-ups (Client.OpenAlexKey is set).
	OpenAlex bool
}

// Propose asks the services about every entry with an arXiv id or a DOI,
// one entry at a time (the client spaces the requests per host).
func Propose(ctx context.Context, c *corpus.Corpus, opt Options) (*Result, error) {
	res := &Result{}
	for i := range c.Papers {
		e := c.Papers[i]
		p, ds, err := proposeEntry(ctx, e, opt)
		res.Findings = append(res.Findings, ds...)
		if err != nil {
			return res, err
		}
		if p != nil {
			res.Proposals = append(res.Proposals, *p)
		}
	}
	return res, nil
}

// entryDOIs are the DOIs an entry's url column names (a doi.org link or
// a publisher URL that carries one).
var doiInURL = regexp.MustCompile(`10\.[0-9]{4,9}/[^\s"<>;,?#]+`)

func entryDOIs(e *corpus.Entry) []string {
	var out []string
	for _, u := range corpus.SplitURLs(e.URL) {
		d, ok := corpus.ParseDOI(u)
		if !ok {
			m := doiInURL.FindString(strings.ToLower(u))
			if m == "" || strings.HasPrefix(m, "10.48550/") {
				continue
			}
			d = strings.TrimRight(m, ".")
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// published is a version of record found for a preprint.
type published struct {
	venue, doi string
	year       int
	source     string
	kind       string // BibTeX type, from Crossref's
}

// proposeEntry gathers one entry's published version and notices.
func proposeEntry(ctx context.Context, e *corpus.Entry, opt Options) (*Proposal, corpus.Diagnostics, error) {
	var ds corpus.Diagnostics
	var pub *published
	var notices []corpus.Notice
	var sources []string
	fail := func(err error) error {
		if errors.Is(err, intake.ErrNotFound) {
			return nil
		}
		return &ServiceError{Err: err}
	}
	warn := func(col, format string, args ...any) {
		ds = append(ds, corpus.Diagnostic{Severity: corpus.Warning, Pos: e.Pos(col), Field: col, Message: fmt.Sprintf(format, args...), Keys: []string{e.Key}})
	}
	// works already read, so a DOI is asked once per entry.
	works := map[string]*intake.Work{}
	crossref := func(doi string) (*intake.Work, error) {
		if w, ok := works[doi]; ok {
			return w, nil
		}
		w, err := opt.Client.Crossref(ctx, doi)
		if err != nil {
			return nil, fail(err)
		}
		works[doi] = w
		return w, nil
	}
	recorded := slices.ContainsFunc(corpus.ParseNotices(e.Notes), func(n corpus.Notice) bool { return n.Kind == corpus.NoticePublished })
	if e.ArxivID != "" && corpus.IsArxivID(e.ArxivID) && !recorded {
		md, err := opt.Client.Arxiv(ctx, e.ArxivID)
		switch {
		case errors.Is(err, intake.ErrNotFound):
			warn("arxiv_id", "arXiv does not know %s: check the id", e.ArxivID)
		case err != nil:
			return nil, ds, &ServiceError{Err: err}
		case md.DOI != "" || md.Venue != "arXiv":
			pub = &published{venue: md.Venue, doi: md.DOI, year: yearIn(md.Venue), source: "arXiv " + e.ArxivID + " journal_ref/doi"}
			if md.Venue == "arXiv" {
				pub.venue = ""
			}
		}
		if pub == nil && opt.OpenAlex {
			w, err := opt.Client.OpenAlex(ctx, "10.48550/arxiv."+e.ArxivID)
			if err != nil && fail(err) != nil {
				return nil, ds, fail(err)
			}
			if w != nil && w.Published != nil {
				pub = &published{venue: w.Published.Venue, doi: w.Published.DOI, year: w.Published.Year, kind: w.Published.Kind, source: "OpenAlex arXiv " + e.ArxivID}
			}
			if w != nil && w.Retracted {
				notices = append(notices, corpus.Notice{Kind: corpus.NoticeRetracted, Detail: "OpenAlex"})
				sources = append(sources, "OpenAlex arXiv "+e.ArxivID+" is_retracted")
			}
		}
	}
	for _, doi := range entryDOIs(e) {
		w, err := crossref(doi)
		if err != nil {
			return nil, ds, err
		}
		if w == nil {
			continue // not a Crossref DOI (DataCite, mEDRA): nothing to learn here
		}
		if n, src := noticesOf(w); len(n) > 0 {
			notices, sources = append(notices, n...), append(sources, src...)
		}
		if pub == nil && !recorded && len(w.PreprintOf) > 0 {
			pub = &published{doi: w.PreprintOf[0], source: "Crossref " + doi + " is-preprint-of"}
		}
	}
	if pub != nil && pub.doi != "" {
		w, err := crossref(pub.doi)
		if err != nil {
			return nil, ds, err
		}
		if w != nil {
			if w.Venue != "" {
				pub.venue = w.Venue
			}
			if w.Year != 0 {
				pub.year = w.Year
			}
			if k := bibType(w.Type); k != "" {
				pub.kind = k
			}
			pub.source += ", Crossref " + pub.doi
			if n, src := noticesOf(w); len(n) > 0 {
				notices, sources = append(notices, n...), append(sources, src...)
			}
		}
	}
	p := &Proposal{Key: e.Key, Pos: e.Pos("key"), Set: map[string]string{}}
	notes := e.Notes
	if pub != nil && pub.venue != "" {
		sources = append([]string{pub.source}, sources...)
		p.Kind = pub.kind
		if pub.venue != e.Venue {
			p.Set["venue"] = pub.venue
		}
		if pub.year != 0 && strconv.Itoa(pub.year) != e.YearText {
			p.Set["year"] = strconv.Itoa(pub.year)
		}
		if pub.doi != "" {
			link := "https://doi.org/" + pub.doi
			if !slices.ContainsFunc(corpus.SplitURLs(e.URL), func(u string) bool { d, _ := corpus.ParseDOI(u); return d == pub.doi }) {
				p.Set["url"] = strings.Join(append(corpus.SplitURLs(e.URL), link), " ; ")
			}
		}
		detail := pub.venue
		if pub.year != 0 {
			detail += ", " + strconv.Itoa(pub.year)
		}
		n := corpus.Notice{Kind: corpus.NoticePublished, DOI: pub.doi, Detail: detail}
		p.Notices = append(p.Notices, n)
		notes = corpus.AddNotices(notes, n)
	} else if pub != nil {
		warn("arxiv_id", "%s names a published version (DOI %s) but no venue: add it by hand", pub.source, pub.doi)
	}
	for _, n := range notices {
		if !corpus.HasNotice(notes, n) {
			p.Notices = append(p.Notices, n)
			notes = corpus.AddNotices(notes, n)
		}
	}
	if notes != e.Notes {
		p.Set["notes"] = notes
	}
	if len(p.Set) == 0 {
		return nil, ds, nil
	}
	p.Sources = sources
	return p, ds, nil
}

// noticesOf turns a work's updated-by relations into notices, skipping
// the kinds that do not warn readers (a new version, an addendum).
func noticesOf(w *intake.Work) ([]corpus.Notice, []string) {
	var out []corpus.Notice
	var src []string
	for _, u := range w.UpdatedBy {
		var k corpus.NoticeKind
		switch u.Type {
		case "retraction", "partial_retraction":
			k = corpus.NoticeRetracted
		case "withdrawal", "removal":
			k = corpus.NoticeWithdrawn
		case "correction", "erratum", "corrigendum":
			k = corpus.NoticeCorrected
		case "expression_of_concern":
			k = corpus.NoticeConcern
		default:
			continue
		}
		n := corpus.Notice{Kind: k, DOI: u.DOI, Detail: u.Date}
		if !slices.Contains(out, n) {
			out = append(out, n)
			src = append(src, "Crossref "+w.DOI+" updated-by "+u.Type+" "+u.DOI)
		}
	}
	return out, src
}

var yearPattern = regexp.MustCompile(`\b(19|20)[0-9]{2}\b`)

// yearIn reads the last year a journal_ref names ("TMLR 2026", "ICML
// 2025, PMLR 267"), or 0.
func yearIn(s string) int {
	all := yearPattern.FindAllString(s, -1)
	if len(all) == 0 {
		return 0
	}
	y, _ := strconv.Atoi(all[len(all)-1])
	return y
}

// Apply writes the proposals into papers.csv's content and returns it in
// the canonical form of masrl fmt. Rows without a proposal are left as
// they were (in a canonical file, byte for byte).
func Apply(name string, src []byte, ps []Proposal) ([]byte, error) {
	r := csv.NewReader(bytes.NewReader(src))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no header", name)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	byKey := map[string]*Proposal{}
	for i := range ps {
		byKey[ps[i].Key] = &ps[i]
	}
	applied := map[string]bool{}
	for _, row := range rows[1:] {
		if len(row) == 0 {
			continue
		}
		p := byKey[row[col["key"]]]
		if p == nil || applied[p.Key] {
			continue
		}
		for c, v := range p.Set {
			i, ok := col[c]
			if !ok || i >= len(row) {
				return nil, fmt.Errorf("%s: row %q has no %s column", name, p.Key, c)
			}
			row[i] = v
		}
		applied[p.Key] = true
	}
	for k := range byKey {
		if !applied[k] {
			return nil, fmt.Errorf("%s: no row with key %q", name, k)
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return corpus.FormatCSV(name, b.Bytes())
}
