// Package search builds the index behind the papers page's free-text search
// and facets. The index is computed at build time from the corpus, written as
// one deterministic JSON file, and read by the site asset search.js.
//
// Match is the Go twin of search.js's filter: the browser tests compute the
// rows a query must leave with it, so the two must keep the same rules:
//   - the query is split on white space into terms, compared lower-cased;
//     an entry matches when every term occurs in one of its text fields
//     (title, authors, key, venue, one-liner, notes, and for the survey's
//     own list where the survey names it: "Table 10", "R3");
//   - facets: an entry matches a field when its tag is one of the values
//     selected for that field (OR within a field), and it must match every
//     field with a selection (AND across fields).
package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/site/internal/jsonenc"
)

// Index is what search.js loads.
type Index struct {
	// Fields are the controlled fields of papers.csv in vocabulary order,
	// each with its whole vocabulary: a facet lists values no entry has.
	Fields  []Field `json:"fields"`
	Entries []Entry `json:"entries"`
	// Links are the list's link columns (corpus.LinkColumn), in order:
	// the results show an entry's as labelled links, the CSV download
	// has a column for each.
	Links []LinkColumn `json:"links,omitempty"`
}

// LinkColumn is one link column of the list.
type LinkColumn struct {
	Name  string `json:"name"`
	Label string `json:"label"`
}

// Field is one facet.
type Field struct {
	Name   string  `json:"name"`
	Label  string  `json:"label"`
	Values []Value `json:"values"`
	// Multiple marks a multi-valued field: an entry's tag holds its
	// values separated by ';', and a facet value matches any of them.
	Multiple bool `json:"multiple,omitempty"`
	// Parents maps each value of a nested field to its parent: a facet
	// value then matches the entries of the values below it too.
	Parents map[string]string `json:"parents,omitempty"`
}

// Value is one checkbox of a facet.
type Value struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Entry is the searchable text and the tags of one retained entry. All of
// it comes from the CSV and is untrusted: search.js inserts it with
// textContent only.
type Entry struct {
	Key      string `json:"key"`
	Title    string `json:"title"`
	Authors  string `json:"authors"`
	Venue    string `json:"venue"`
	OneLiner string `json:"one_liner"`
	Notes    string `json:"notes"`
	Year     int    `json:"year"`
	URL      string `json:"url"`
	// Tags maps every controlled field to the entry's value. encoding/json
	// writes map keys sorted, so the bytes stay deterministic.
	Tags map[string]string `json:"tags"`
	// Links maps a link column to the entry's web link; columns without
	// one are left out.
	Links map[string]string `json:"links,omitempty"`
	// Survey is where the survey names the entry, for the survey's own
	// list ("[43]; Table 10, R3; Figure 12; ..."): the site sets it from
	// the survey's mentions; "" (and absent from the JSON) otherwise.
	Survey string `json:"survey,omitempty"`
}

// Build indexes the retained entries in CSV order. entryURL gives the path
// of an entry's page relative to the site root. Authors are the BibTeX
// author list when the entry has one, else the CSV's first author.
func Build(c *corpus.Corpus, v *corpus.Vocabulary, entryURL func(key string) string) *Index {
	ix := &Index{Entries: make([]Entry, 0, len(c.Papers))}
	fields := v.FieldsOf(corpus.PapersFile)
	for _, f := range fields {
		fd := Field{Name: f.Name, Label: f.Label, Multiple: f.Multiple}
		for _, t := range f.Values {
			if t.Parent != "" {
				if fd.Parents == nil {
					fd.Parents = map[string]string{}
				}
				fd.Parents[t.Value] = t.Parent
			}
		}
		for _, t := range f.Values {
			label := t.Label
			if label == "" {
				label = t.Value
			}
			fd.Values = append(fd.Values, Value{Value: t.Value, Label: label})
		}
		ix.Fields = append(ix.Fields, fd)
	}
	for _, l := range v.Links {
		ix.Links = append(ix.Links, LinkColumn{Name: l.Name, Label: l.Label})
	}
	for i := range c.Papers {
		e := c.Papers[i]
		authors := e.FirstAuthor
		if b := c.BibFor(e); b != nil && b.Fields["author"] != "" {
			names, etAl := corpus.BibAuthors(b.Fields["author"])
			authors = strings.Join(names, "; ")
			if etAl {
				authors += " et al."
			}
		}
		se := Entry{
			Key: e.Key, Title: e.Title, Authors: authors, Venue: e.Venue,
			OneLiner: e.OneLiner, Notes: e.Notes, Year: e.Year, Tags: map[string]string{},
		}
		if entryURL != nil {
			se.URL = entryURL(e.Key)
		}
		for _, f := range fields {
			se.Tags[f.Name] = f.Join(e.Values(f))
		}
		for _, l := range v.Links {
			if u := e.Value(l.Name); corpus.IsWebURL(u) {
				if se.Links == nil {
					se.Links = map[string]string{}
				}
				se.Links[l.Name] = u
			}
		}
		ix.Entries = append(ix.Entries, se)
	}
	return ix
}

// JSON encodes the index. The output is safe to embed in HTML (<, >, & are
// escaped) and byte-identical for the same input: what json.Marshal and
// json.HTMLEscape make of it, and a newline.
func (ix *Index) JSON() ([]byte, error) {
	return ix.JSONOf(func(i int) ([]byte, error) { return ix.Entries[i].JSON() })
}

// JSONOf is JSON with entry i encoded by entry(i), which must return what
// Entries[i].JSON does: a build that keeps each entry's encoding encodes
// again only the entries that changed.
func (ix *Index) JSONOf(entry func(i int) ([]byte, error)) ([]byte, error) {
	fields, err := json.Marshal(ix.Fields)
	if err != nil {
		return nil, err
	}
	// The entries first, so that the buffer is made once at its size:
	// grown by doubling, the index of 10,000 entries was copied and
	// cleared about twice over.
	pieces := make([][]byte, len(ix.Entries))
	size := len(fields) + len(ix.Entries) + 64
	for i := range ix.Entries {
		p, err := entry(i)
		if err != nil {
			return nil, err
		}
		pieces[i] = p
		size += len(p)
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(`{"fields":`)
	json.HTMLEscape(&b, fields)
	b.WriteString(`,"entries":`)
	if ix.Entries == nil {
		b.WriteString("null")
	} else {
		b.WriteByte('[')
		for i, p := range pieces {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(p)
		}
		b.WriteByte(']')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// JSON encodes one entry as the index's JSON holds it, HTML-safe: what
// json.Marshal writes of it (which escapes <, > and & already) and
// json.HTMLEscape keeps as it is. It writes the fields itself, in the
// struct's order with its names and omitempty rules, and the maps' keys
// sorted as encoding/json sorts them: json.Marshal's reflection and its
// map sorting per entry were a twentieth of a 10,000-entry build's CPU
// (bench/profile/build-10k-5.md). TestEntryJSONIsMarshal holds it to
// json.Marshal's bytes.
func (e *Entry) JSON() ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, `{"key":`...)
	b = jsonenc.AppendString(b, e.Key)
	b = append(b, `,"title":`...)
	b = jsonenc.AppendString(b, e.Title)
	b = append(b, `,"authors":`...)
	b = jsonenc.AppendString(b, e.Authors)
	b = append(b, `,"venue":`...)
	b = jsonenc.AppendString(b, e.Venue)
	b = append(b, `,"one_liner":`...)
	b = jsonenc.AppendString(b, e.OneLiner)
	b = append(b, `,"notes":`...)
	b = jsonenc.AppendString(b, e.Notes)
	b = append(b, `,"year":`...)
	b = strconv.AppendInt(b, int64(e.Year), 10)
	b = append(b, `,"url":`...)
	b = jsonenc.AppendString(b, e.URL)
	b = append(b, `,"tags":`...)
	b = appendMap(b, e.Tags)
	if len(e.Links) > 0 {
		b = append(b, `,"links":`...)
		b = appendMap(b, e.Links)
	}
	if e.Survey != "" {
		b = append(b, `,"survey":`...)
		b = jsonenc.AppendString(b, e.Survey)
	}
	return append(b, '}'), nil
}

// appendMap appends m as json.Marshal encodes a map of strings: null
// for nil, the keys sorted by their bytes.
func appendMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, k)
		b = append(b, ':')
		b = jsonenc.AppendString(b, m[k])
	}
	return append(b, '}')
}

// embeddableJSON encodes v with <, > and & escaped, so that it is safe to
// embed in HTML, ending in a newline.
func embeddableJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	json.HTMLEscape(&b, raw)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// Terms splits a query the way search.js does.
func Terms(query string) []string {
	return strings.Fields(strings.ToLower(query))
}

// text is the lower-cased haystack of an entry, fields separated by a
// newline so that a term cannot match across two fields.
func (e *Entry) text() string {
	return strings.ToLower(strings.Join([]string{e.Title, e.Authors, e.Key, e.Venue, e.OneLiner, e.Notes, e.Survey}, "\n"))
}

// Matches reports whether the entry matches the query and the selected
// facet values (field name -> values).
func (e *Entry) Matches(query string, facets map[string][]string) bool {
	return e.matches(query, facets, nil)
}

// matches is Matches where the fields in multi are multi-valued: a facet
// value matches any of the entry's ';'-separated values, as search.js
// does; parents holds the parents of a nested field's values, and a value
// matches its descendants' entries.
func (e *Entry) matches(query string, facets map[string][]string, multi map[string]bool, parents ...map[string]map[string]string) bool {
	hay := e.text()
	for _, t := range Terms(query) {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	for field, values := range facets {
		if len(values) == 0 {
			continue
		}
		have := []string{e.Tags[field]}
		if multi[field] {
			have = strings.Split(e.Tags[field], ";")
			for i := range have {
				have[i] = strings.TrimSpace(have[i])
			}
		}
		if len(parents) > 0 {
			up := parents[0][field]
			for i := 0; i < len(have); i++ {
				if p, ok := up[have[i]]; ok && !slices.Contains(have, p) {
					have = append(have, p)
				}
			}
		}
		if !slices.ContainsFunc(have, func(v string) bool { return slices.Contains(values, v) }) {
			return false
		}
	}
	return true
}

// Match returns the keys of the entries that match, in index order.
func (ix *Index) Match(query string, facets map[string][]string) []string {
	keys := []string{}
	multi := map[string]bool{}
	parents := map[string]map[string]string{}
	for _, f := range ix.Fields {
		multi[f.Name], parents[f.Name] = f.Multiple, f.Parents
	}
	for i := range ix.Entries {
		if ix.Entries[i].matches(query, facets, multi, parents) {
			keys = append(keys, ix.Entries[i].Key)
		}
	}
	return keys
}

// BibFile is the papers page's BibTeX by entry key, from the root: the
// export of the filtered list loads it only when a reader asks for BibTeX,
// so the search index stays small.
const BibFile = "search-bib.json"

// Bib encodes, for every retained entry with BibTeX, its key and the
// entry's exact BibTeX source, trimmed. Like JSON, it is HTML-safe and
// deterministic (encoding/json sorts map keys).
//
// links are the list's link columns: an entry's web links are added to
// its BibTeX as fields named after them (code = {URL}), so the download
// keeps them.
func Bib(c *corpus.Corpus, links ...*corpus.LinkColumn) ([]byte, error) {
	m := map[string]string{}
	for i := range c.Papers {
		if b := c.BibFor(c.Papers[i]); b != nil {
			m[c.Papers[i].Key] = withLinkFields(strings.TrimSpace(b.Raw), c.Papers[i], links)
		}
	}
	return embeddableJSON(m)
}

// withLinkFields adds e's link columns to the BibTeX entry raw as fields
// before its closing brace; raw is returned as it is when e has none or
// the entry already has such a field.
func withLinkFields(raw string, e *corpus.Entry, links []*corpus.LinkColumn) string {
	end := strings.LastIndex(raw, "}")
	if end < 0 {
		return raw
	}
	var add strings.Builder
	for _, l := range links {
		u := e.Value(l.Name)
		if !corpus.IsWebURL(u) || strings.ContainsAny(u, "{}") || regexp.MustCompile(`(?im)^\s*`+regexp.QuoteMeta(l.Name)+`\s*=`).MatchString(raw) {
			continue
		}
		fmt.Fprintf(&add, "  %s = {%s},\n", l.Name, u)
	}
	if add.Len() == 0 {
		return raw
	}
	body := strings.TrimRight(raw[:end], " \t\n")
	if !strings.HasSuffix(body, ",") {
		body += ","
	}
	return body + "\n" + add.String() + raw[end:]
}
