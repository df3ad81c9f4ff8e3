package site

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/schema"
	"github.com/masrl/masrl/site/internal/jsonenc"
)

// assetFS holds the site's static files (style sheet and scripts). Files a
// colleague adds to site/assets are picked up without code changes.
//
//go:embed assets
var assetFS embed.FS

// schemas publishes the project's JSON Schemas (package schema) under
// schema/, the path their $id names below the site's address, so that an
// editor can validate a trace, masrl.yaml or a row against them. The row's
// schema is generated from the list's vocabulary (for the survey's, it is
// the committed paper.schema.json byte for byte). The trace schemas
// (trace.schema.json, partial.schema.json) go with the traces page: a list
// that did not ask for it publishes nothing of orchestration traces.
func (r *renderer) schemas() error {
	return fs.WalkDir(schema.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !r.site.Traces && (p == traceSchemaFile || p == partialSchemaFile) {
			return nil
		}
		var b []byte
		if p == rowSchemaFile {
			id, err := schema.ID(p)
			if err != nil {
				return err
			}
			b, err = schema.Document(id, corpus.RowSchema(r.v))
			if err != nil {
				return err
			}
		} else if b, err = fs.ReadFile(schema.FS(), p); err != nil {
			return err
		}
		return r.files.Add(path.Join("schema", p), b)
	})
}

// rowSchemaFile is the schema of one row of papers.csv; traceSchemaFile
// and partialSchemaFile are those of a trace and of masrl trace stats
// --partial's summary.
const (
	rowSchemaFile     = "paper.schema.json"
	traceSchemaFile   = "trace.schema.json"
	partialSchemaFile = "partial.schema.json"
)

func (r *renderer) downloads() error {
	// The bib is published exactly as read, and so are the CSVs but for
	// the cells a spreadsheet would run as formulas, which
	// corpus.DefuseCSV prefixes with an apostrophe (check warns about
	// them).
	for _, name := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile} {
		if (name == corpus.BibFile && !r.c.HasBib) || (name == corpus.ExcludedFile && !r.c.HasExcluded) {
			continue
		}
		err := r.generate(name, func(w io.Writer) error {
			// The text corpus.Open read, not the file again: the site
			// reads nothing from disk.
			src, err := r.c.Source(name)
			if err != nil {
				return err
			}
			if name == corpus.BibFile {
				_, err = io.WriteString(w, src)
				return err
			}
			b, err := corpus.DefuseCSV([]byte(src))
			if err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(r.c.Dir, name), err)
			}
			_, err = w.Write(b)
			return err
		})
		if err != nil {
			return err
		}
	}
	papers := r.c.Papers
	if papers == nil {
		papers = []*corpus.Entry{}
	}
	excluded := r.c.Excluded
	if excluded == nil {
		excluded = []corpus.Exclusion{}
	}
	err := r.generateKeyed("papers.json", r.surveyInputs, func(w io.Writer) error {
		pieces, err := r.rowPieces("papers.json", r.surveyContext(), func(i int) ([]byte, error) { return r.paperJSON(papers[i]) })
		if err != nil {
			return err
		}
		return writeJSONArray(w, len(pieces), func(i int) ([]byte, error) { return pieces[i], nil })
	})
	if err != nil {
		return err
	}
	if r.c.HasExcluded { // no exclusion log, no empty download of one
		err := r.generate("excluded.json", func(w io.Writer) error {
			return writeJSONArray(w, len(excluded), func(i int) ([]byte, error) { return exclusionJSON(&excluded[i]), nil })
		})
		if err != nil {
			return err
		}
	}
	// stats.json is the same report masrl stats --format json prints.
	return r.generate("stats.json", func(w io.Writer) error {
		b, err := json.MarshalIndent(corpus.ComputeStats(r.c, r.v), "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	})
}

// writeJSONArray writes what json.MarshalIndent(items, "", "  ") and a
// newline would of n items, item i as encode(i) gives it (what
// json.MarshalIndent(&items[i], "  ", "  ") writes), one at a time:
// papers.json of 100,000 entries would otherwise be encoded, then
// indented, in memory twice over, and a build that keeps each row's
// encoding (rowPieces) encodes again only the rows that changed.
func writeJSONArray(w io.Writer, n int, encode func(i int) ([]byte, error)) error {
	if n == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[\n  ")
	for i := range n {
		if i > 0 {
			bw.WriteString(",\n  ")
		}
		b, err := encode(i)
		if err != nil {
			return err
		}
		bw.Write(b)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// Atom feed types (RFC 4287), only the elements the feed uses.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomPerson  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title      string         `xml:"title"`
	ID         string         `xml:"id"`
	Updated    string         `xml:"updated"`
	Links      []atomLink     `xml:"link"`
	Author     atomPerson     `xml:"author"`
	Summary    string         `xml:"summary,omitempty"`
	Categories []atomCategory `xml:"category"`
}

type atomCategory struct {
	Term   string `xml:"term,attr"`
	Scheme string `xml:"scheme,attr,omitempty"`
	Label  string `xml:"label,attr,omitempty"`
}

// feedLimit is how many entries the feed carries, the newest: a reader
// polls it for what is new, and a feed of the whole pool grew to 150 MB at
// 100,000 entries. The real pool is smaller than the limit.
const feedLimit = 200

// feed writes feed.xml: the newest feedLimit entries, newest first. Dates
// come from the data (entryDate), and the feed's own date is its newest
// entry's, so that rebuilding an unchanged corpus changes nothing.
//
// An Atom feed needs absolute ids and links, so a build without a base URL
// writes none (and the pages do not link one).
func (r *renderer) feed() error {
	if !r.site.Feed {
		return nil
	}
	return r.generate("feed.xml", r.writeFeed)
}

func (r *renderer) writeFeed(w io.Writer) error {
	return r.writeFeedOf(w, r.entries, r.site.Title, "feed.xml", "", true)
}

// writeFeedOf writes the Atom feed of es, newest first (EntryView.Date):
// the site's feed (with the releases) or a field value's (page is the
// value's page, self its feed.xml).
func (r *renderer) writeFeedOf(w io.Writer, entries []*EntryView, title, self, page string, releases bool) error {
	es := slices.Clone(entries)
	slices.SortStableFunc(es, func(a, b *EntryView) int {
		if c := strings.Compare(b.Date, a.Date); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	abs := r.absURL
	f := atomFeed{
		Title: title, ID: abs(page), Author: atomPerson{Name: "masrl"},
		Links: []atomLink{{Href: abs(self), Rel: "self"}, {Href: abs(page)}},
	}
	for _, e := range es {
		if e.Date == "" {
			continue
		}
		if len(f.Entries) == feedLimit {
			break
		}
		ts := e.Date + "T00:00:00Z"
		if ts > f.Updated {
			f.Updated = ts
		}
		ae := atomEntry{
			Title: e.Title, ID: abs(e.Href), Updated: ts, Summary: e.OneLiner,
			Links:  []atomLink{{Href: abs(e.Href)}},
			Author: atomPerson{Name: e.FirstAuthor},
		}
		for _, t := range e.Tags {
			ae.Categories = append(ae.Categories, atomCategory{Term: t.Value, Scheme: abs("taxonomy/" + t.Field + "/"), Label: t.FieldLabel + ": " + t.Label})
		}
		f.Entries = append(f.Entries, ae)
	}
	var rels []atomEntry
	if releases {
		rels = r.releaseFeedEntries()
	}
	for _, e := range rels {
		f.Updated = max(f.Updated, e.Updated)
	}
	f.Entries = append(rels, f.Entries...)
	if f.Updated == "" {
		f.Updated = "1970-01-01T00:00:00Z"
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

type urlset struct {
	XMLName xml.Name     `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc string `xml:"loc"`
}

// sitemap writes sitemap.xml (every page, sorted, absolute) and robots.txt,
// which names it. A sitemap lists absolute URLs only, so a build without a
// base URL writes robots.txt alone.
func (r *renderer) sitemap() error {
	robots := "User-agent: *\nAllow: /\n"
	if r.opt.BaseURL != "" {
		robots += "\nSitemap: " + r.absURL("sitemap.xml") + "\n"
	}
	if err := r.files.Add("robots.txt", []byte(robots)); err != nil {
		return err
	}
	if r.opt.BaseURL == "" {
		return nil
	}
	return r.generate("sitemap.xml", r.writeSitemap)
}

func (r *renderer) writeSitemap(w io.Writer) error {
	pages := slices.Clone(r.pages)
	slices.Sort(pages)
	var us urlset
	for _, p := range pages {
		us.URLs = append(us.URLs, sitemapURL{Loc: r.absURL(p)})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(us); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// paperJSON encodes a row as papers.json holds it, what
// json.MarshalIndent(e, "  ", "  ") writes, with, for the survey's own
// list, what the survey says of it (survey: its reference and mentions).
// It writes the indented row itself, in Entry.MarshalJSON's order (every
// column as text but year and url, then the year, the URLs and the
// line): encoding the compact row and indenting it (json.Indent, which
// scans every byte again) was a twelfth of a 10,000-entry build's CPU
// (bench/profile/build-10k-5.md). TestPaperJSONIsMarshalIndent holds it
// to json.MarshalIndent's bytes.
func (r *renderer) paperJSON(e *corpus.Entry) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, '{')
	sep := func() { b = append(b, "\n    "...) }
	cols := e.Columns()
	for i, col := range cols {
		if col == "year" || col == "url" || slices.Contains(cols[:i], col) {
			continue
		}
		sep()
		b = jsonenc.AppendString(b, col)
		b = append(b, ": "...)
		b = jsonenc.AppendString(b, e.Value(col))
		b = append(b, ',')
	}
	sep()
	b = append(b, `"year": `...)
	b = strconv.AppendInt(b, int64(e.Year), 10)
	b = append(b, ',')
	sep()
	b = append(b, `"urls": `...)
	switch {
	case e.URLs == nil:
		b = append(b, "null"...)
	case len(e.URLs) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i, u := range e.URLs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n      "...)
			b = jsonenc.AppendString(b, u)
		}
		b = append(b, "\n    ]"...)
	}
	b = append(b, ',')
	sep()
	b = append(b, `"line": `...)
	b = strconv.AppendInt(b, int64(e.Line), 10)
	if es := r.surveyOf[e.Key]; es != nil {
		sv, err := json.Marshal(es)
		if err != nil {
			return nil, err
		}
		// Indented on its own, one level in: the same bytes as the
		// whole row's json.Indent gives it.
		var ind bytes.Buffer
		if err := json.Indent(&ind, sv, "    ", "  "); err != nil {
			return nil, err
		}
		b = append(b, ',')
		sep()
		b = append(b, `"survey": `...)
		b = append(b, ind.Bytes()...)
	}
	b = append(b, "\n  }"...)
	return b, nil
}

// exclusionJSON encodes an excluded.csv row as excluded.json holds it,
// what json.MarshalIndent(x, "  ", "  ") writes: its fields in the
// struct's order, every one a string but the line. Written directly, not
// by reflection and json.Indent's second pass over every byte.
// TestExclusionJSONIsMarshalIndent holds it to json.MarshalIndent.
func exclusionJSON(x *corpus.Exclusion) []byte {
	b := make([]byte, 0, 512)
	for i, f := range [...]struct{ name, value string }{
		{"record_id", x.RecordID}, {"source", x.Source}, {"query_family", x.QueryFamily},
		{"screening_label", x.ScreeningLabel}, {"identifier", x.Identifier}, {"url", x.URL},
		{"date_screened", x.DateScreened}, {"stage", x.Stage}, {"exclusion_reason", x.ExclusionReason},
	} {
		if i == 0 {
			b = append(b, "{\n    \""...)
		} else {
			b = append(b, ",\n    \""...)
		}
		b = append(b, f.name...)
		b = append(b, "\": "...)
		b = jsonenc.AppendString(b, f.value)
	}
	b = append(b, ",\n    \"line\": "...)
	b = strconv.AppendInt(b, int64(x.Line), 10)
	return append(b, "\n  }"...)
}
