package intake

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// Draft is a new entry: the papers.csv row and the papers.bib entry.
type Draft struct {
	Key     string
	BibKey  string
	Row     map[string]string // column → value, every column of papers.csv
	BibText string
}

// Record returns the row in the order of cols, the header of the
// papers.csv it joins (a list orders its columns as it likes); a column
// the draft does not fill, free text of the list's own, is empty.
func (d *Draft) Record(cols []string) []string {
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = d.Row[c]
	}
	return rec
}

// NewDraft drafts the row and the BibTeX entry of a paper. tags holds the
// controlled columns (checked by the caller against the vocabulary), and
// key the entry's key.
func NewDraft(m *Metadata, key string, tags map[string]string, oneLiner, notes string) *Draft {
	d := &Draft{Key: key, BibKey: BibKey(key, m.Year), Row: map[string]string{}}
	for _, c := range corpus.PaperColumns() {
		d.Row[c] = ""
	}
	maps.Copy(d.Row, tags)
	d.Row["key"] = key
	d.Row["title"] = m.Title
	d.Row["first_author"] = m.FirstAuthor()
	d.Row["affiliation"] = m.Affiliation
	if m.Year > 0 {
		d.Row["year"] = strconv.Itoa(m.Year)
	}
	d.Row["arxiv_id"] = m.ArxivID
	d.Row["venue"] = m.Venue
	d.Row["url"] = m.URL
	d.Row["one_liner"] = oneLiner
	d.Row["notes"] = notes
	d.BibText = bibEntry(m, d.BibKey)
	return d
}

// BibKey derives the BibTeX key from the row key as the corpus does: the
// key and the year (magrpo2025), with a hyphen when the key ends in a
// digit (c3-2026).
func BibKey(key string, year int) string {
	if year <= 0 {
		return key
	}
	if last := key[len(key)-1]; last >= '0' && last <= '9' {
		return fmt.Sprintf("%s-%d", key, year)
	}
	return fmt.Sprintf("%s%d", key, year)
}

// DeriveKey proposes a key: the acronym before a title's colon
// ("OrchestraRL: ..." → orchestrarl) when it is short, otherwise the first
// author's family name and the year (doe2026). taken says whether a key is
// in use; a numbered suffix makes it free.
func DeriveKey(m *Metadata, taken func(string) bool) string {
	base := ""
	if i := strings.IndexByte(m.Title, ':'); i > 0 && i <= 30 && len(strings.Fields(m.Title[:i])) <= 3 {
		base = corpus.Slug(m.Title[:i])
	}
	if base == "" && len(m.Authors) > 0 {
		a := m.Authors[0]
		name := a.Family
		if name == "" {
			name = a.Literal
		}
		base = corpus.Slug(name)
		if base != "" && m.Year > 0 {
			base += strconv.Itoa(m.Year)
		}
	}
	if base == "" {
		base = corpus.Slug(m.Title)
		if len(base) > 30 {
			base = strings.TrimRight(base[:30], "-")
		}
	}
	if base == "" {
		base = "paper"
	}
	key := base
	for n := 2; taken(key); n++ {
		key = fmt.Sprintf("%s-%d", base, n)
	}
	return key
}

// bibEntry writes the entry; masrl add then formats the file, which puts
// it in canonical form.
func bibEntry(m *Metadata, key string) string {
	var fields [][2]string
	add := func(name, value string) {
		if value != "" {
			fields = append(fields, [2]string{name, value})
		}
	}
	add("title", BibEscape(m.Title))
	var names []string
	for _, a := range m.Authors {
		n := a.Display()
		if a.Family == "" && a.Literal != "" {
			n = "{" + BibEscape(a.Literal) + "}" // an organisation: one name
		} else {
			n = BibEscape(n)
		}
		names = append(names, n)
	}
	add("author", strings.Join(names, " and "))
	add("journal", BibEscape(m.Journal))
	add("booktitle", BibEscape(m.Booktitle))
	add("volume", BibEscape(m.Volume))
	add("number", BibEscape(m.Number))
	add("pages", BibEscape(m.Pages))
	if m.Year > 0 {
		add("year", strconv.Itoa(m.Year))
	}
	if m.Kind != "article" || m.ArxivID == "" {
		add("publisher", BibEscape(m.Publisher))
	}
	add("doi", noBraces(m.DOI))
	add("url", noBraces(m.URL))
	kind := m.Kind
	if kind == "" {
		kind = "misc"
	}
	var b strings.Builder
	b.WriteString("@" + kind + "{" + key + ",\n")
	for _, f := range fields {
		b.WriteString("  " + f[0] + " = {" + f[1] + "},\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// BibEscape makes metadata text safe inside a braced BibTeX value: & and
// % are escaped (unless already; _ and # are left alone, since titles carry
// them inside $...$ math), and braces that would not balance are dropped.
func BibEscape(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		escaped := i > 0 && s[i-1] == '\\'
		switch {
		case (c == '&' || c == '%') && !escaped:
			b.WriteByte('\\')
		case c == '{':
			if strings.Count(s[i:], "}") <= depth {
				continue // never closed
			}
			depth++
		case c == '}':
			if depth == 0 {
				continue
			}
			depth--
		}
		b.WriteByte(c)
	}
	if depth != 0 {
		return noBraces(b.String())
	}
	return b.String()
}

// noBraces drops braces, for values (URLs, DOIs) that never need them.
func noBraces(s string) string { return strings.NewReplacer("{", "", "}", "").Replace(s) }
