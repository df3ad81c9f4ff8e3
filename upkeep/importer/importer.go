// Package importer reads a list a maintainer already keeps (an awesome
// README in Markdown, a BibTeX file, a CSL JSON export) into the files of
// a masrl list: papers.csv, papers.bib, vocab.yaml and masrl.yaml. It is
// apart from intake because it reads files, not services, and reports
// every item it could not read instead of stopping at the first.
package importer

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
	"golang.org/x/text/unicode/norm"
)

// Field is the controlled column the headings (or keywords) become.
const Field = "topic"

// Entry is one paper as the source gives it.
type Entry struct {
	Title    string
	URL      string
	ArxivID  string
	DOI      string
	Date     string // YYYY, YYYY-MM or YYYY-MM-DD
	Year     int
	Authors  []intake.Author
	Venue    string
	OneLiner string
	Code     string
	Project  string
	Values   []string // values of Field, in the order first met
	Pos      string   // FILE:line of its first listing
	// venueField is the BibTeX field the venue came from (booktitle or
	// journal), so that the written entry keeps its type.
	venueField string
	// format is the source's format, whose terms a problem's hint uses.
	format Format
}

// webLink is u as the check takes a link, else "": an absolute http or
// https URL, its ';' written %3B (the url column separates several URLs
// with ';', and a link may hold one: ";jsessionid=", a SICI DOI).
func webLink(u string) string {
	u = strings.ReplaceAll(u, ";", "%3B")
	if !corpus.IsWebURL(u) {
		return ""
	}
	return u
}

// proceedingsURL is a proceedings page whose URL holds the paper's
// year: NeurIPS (paper/2020, paper_files/paper/2023), the ACL Anthology
// (2024.emnlp-main.174, or P19-1001 for 2019), the CVF's open access
// (content/CVPR2023, content_ICCV_2017) and IJCAI (proceedings/2021).
var proceedingsURL = regexp.MustCompile(`^https?://(?:www\.)?(?:` +
	`(?:proceedings\.neurips\.cc|papers\.nips\.cc)/paper(?:_files/paper)?/((?:19|20)\d\d)/` +
	`|aclanthology\.org/(?:((?:19|20)\d\d)\.|[A-Z](\d\d)-\d{4})` +
	`|openaccess\.thecvf\.com/content[/_][A-Za-z]+_?((?:19|20)\d\d)` +
	`|ijcai\.org/proceedings/((?:19|20)\d\d)/)`)

// proceedingsYear is the year in a proceedings URL, else 0.
func proceedingsYear(u string) int {
	m := proceedingsURL.FindStringSubmatch(u)
	if m == nil {
		return 0
	}
	for i, g := range m[1:] {
		if g == "" {
			continue
		}
		y, _ := strconv.Atoi(g)
		if i == 2 { // an old Anthology id: P19 is 2019, P98 1998
			if y < 50 {
				return 2000 + y
			}
			return 1900 + y
		}
		return y
	}
	return 0
}

// hints say, in each format's terms, how to give an entry its title,
// year and link.
var hints = map[Format][3]string{
	Markdown: {"write it as [Title](url) or **Title**", "give a date ([2023-05]) or an arXiv link", "give [Title](url) or a [paper](url) link"},
	BibTeX:   {"give it a title field", "give it a year field or an arXiv eprint", "give it a url, doi or eprint field"},
	CSLJSON:  {"give it a title", "give it an issued date or an arXiv number", "give it a URL, a DOI or an arXiv number"},
}

// Value is one value of Field: a heading, a keyword or a collection.
type Value struct {
	Value, Label, Parent string
}

// Problem is an item that could not be read, at its FILE:line.
type Problem struct {
	Pos, Msg string
}

func (p Problem) String() string { return p.Pos + ": " + p.Msg }

// Result is what the sources held: the entries, the field's values, the
// list's title and every item left out.
type Result struct {
	Title    string
	Formats  []string // the format of each source, by name
	Entries  []*Entry
	Values   []Value
	Problems []Problem
	// Merged counts items that were listed again (under another heading,
	// or in another source) and became values of an entry already read.
	Merged int
	// byID finds an entry already read by "arxiv:ID", "doi:DOI" or
	// "title:NORMALISED", so that adding n entries costs n look-ups, not
	// n² comparisons (a list of 4,000 items took a minute).
	byID map[string]*Entry
}

// Format is a source format, detected from content.
type Format string

// The formats Read knows.
const (
	Markdown Format = "Markdown README"
	BibTeX   Format = "BibTeX"
	CSLJSON  Format = "CSL JSON"
)

// Options are the choices of an import.
type Options struct {
	// TagField is the BibTeX field or CSL variable whose values become
	// tags; empty means keywords (BibTeX) and tags/keyword (CSL JSON).
	TagField string
}

// Read adds the items of one source, detected from its content, to r.
// The error is for a source that is not of any format at all; items
// that cannot be read are r.Problems.
func (r *Result) Read(name string, src []byte, opt Options) error {
	if err := checkUTF8(name, src); err != nil {
		return err
	}
	f := Detect(src)
	r.Formats = append(r.Formats, name+": "+string(f))
	switch f {
	case BibTeX:
		return r.readBib(name, src, opt)
	case CSLJSON:
		return r.readCSL(name, src, opt)
	}
	r.readMarkdown(name, src)
	return nil
}

// checkUTF8 refuses a source that is not UTF-8 (a README saved as
// Latin-1), at its first bad byte's line and column: read anyway, its
// bytes would fail the check of the list and stop the whole import.
func checkUTF8(name string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += size
		}
		i += size
	}
	return fmt.Errorf("%s:%d:%d: invalid UTF-8: save the file as UTF-8", name, line, col)
}

// add merges e into the result: an entry with the same arXiv id, DOI or
// normalised title gains e's values and missing links instead of being
// listed twice.
func (r *Result) add(e *Entry) {
	if o := r.find(e); o != nil {
		for _, v := range e.Values {
			if !slices.Contains(o.Values, v) {
				o.Values = append(o.Values, v)
			}
		}
		// A table that names papers by their short names
		// ("Search-R1") and a list that gives the whole title
		// ("Search-R1: Training LLMs to…"): keep the whole title.
		n, m := normTitle(o.Title), normTitle(e.Title)
		if len(m) > len(n) && strings.HasPrefix(m, n) && !strings.Contains(o.Title, ":") {
			o.Title = e.Title
		}
		// Authors only from a listing of the paper by its title, not
		// from an item that links it in passing.
		if len(o.Authors) == 0 && (strings.HasPrefix(m, n) || strings.HasPrefix(n, m)) {
			o.Authors = e.Authors
		}
		if o.Date == "" && e.Year == o.Year {
			o.Date = e.Date
		}
		o.ArxivID = cmp.Or(o.ArxivID, e.ArxivID)
		o.DOI = cmp.Or(o.DOI, e.DOI)
		o.Code = cmp.Or(o.Code, e.Code)
		o.Project = cmp.Or(o.Project, e.Project)
		o.OneLiner = cmp.Or(o.OneLiner, e.OneLiner)
		o.Venue = cmp.Or(o.Venue, e.Venue)
		r.Merged++
		r.index(o, e)
		return
	}
	r.Entries = append(r.Entries, e)
	r.index(e, e)
}

// identities are the keys by which e is the same paper as another: its
// arXiv id, its DOI and its normalised title (none for a title without
// letters or digits, which would make every such title one paper).
func identities(e *Entry) []string {
	var ids []string
	if e.ArxivID != "" {
		ids = append(ids, "arxiv:"+e.ArxivID)
	}
	if e.DOI != "" {
		ids = append(ids, "doi:"+e.DOI)
	}
	if t := normTitle(e.Title); t != "" {
		ids = append(ids, "title:"+t)
	}
	return ids
}

// find returns the entry already read that e is the same paper as, by
// arXiv id, then DOI, then normalised title; never one with another
// arXiv id or DOI (short names collide: R1-Searcher, R1-Searcher++).
func (r *Result) find(e *Entry) *Entry {
	for _, id := range identities(e) {
		if o := r.byID[id]; o != nil && !differ(o.ArxivID, e.ArxivID) && !differ(o.DOI, e.DOI) {
			return o
		}
	}
	return nil
}

func differ(a, b string) bool { return a != "" && b != "" && a != b }

// index files entry o under its identities and those of e, an item
// merged into it (its short name, its other title): later listings by
// any of them find o.
func (r *Result) index(o, e *Entry) {
	if r.byID == nil {
		r.byID = map[string]*Entry{}
	}
	for _, x := range []*Entry{o, e} {
		for _, id := range identities(x) {
			if _, ok := r.byID[id]; !ok {
				r.byID[id] = o
			}
		}
	}
}

// normTitle is a title reduced to its lowercase letters and digits.
func normTitle(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// addValue declares a value of Field under parent and returns it: a
// label met again under the same parent is the same value, a label
// whose slug is taken under another parent gets the parent's slug before
// it.
func (r *Result) addValue(label, parent string) string {
	label = cleanText(label)
	for _, v := range r.Values {
		if v.Label == label && v.Parent == parent {
			return v.Value
		}
	}
	base := corpus.Slug(label)
	if base == "" {
		base = "section"
	}
	if parent != "" && r.valueTaken(base) {
		base = parent + "-" + base
	}
	val := base
	for n := 2; r.valueTaken(val); n++ {
		val = base + "-" + strconv.Itoa(n)
	}
	r.Values = append(r.Values, Value{Value: val, Label: cmp.Or(label, val), Parent: parent})
	return val
}

func (r *Result) valueTaken(v string) bool {
	return slices.ContainsFunc(r.Values, func(x Value) bool { return x.Value == v })
}

// finish gives each entry its year (from the date, else from the arXiv
// id) and URL (else the arXiv abs page), merges it into the entry read
// already that it is the same paper as, and moves an entry that lacks a
// title, a year or a URL to the problems.
func (r *Result) finish(e *Entry) {
	e.Title, e.Venue, e.OneLiner = cleanText(e.Title), cleanText(e.Venue), cleanText(e.OneLiner)
	for i, a := range e.Authors {
		e.Authors[i] = intake.Author{Given: cleanText(a.Given), Family: cleanText(a.Family), Literal: cleanText(a.Literal)}
	}
	if e.Year == 0 && len(e.Date) >= 4 {
		e.Year, _ = strconv.Atoi(e.Date[:4])
	}
	if e.Year == 0 {
		e.Year = proceedingsYear(e.URL)
	}
	if e.Year == 0 && e.ArxivID != "" && len(e.ArxivID) >= 4 && e.ArxivID[4] == '.' {
		if yy, err := strconv.Atoi(e.ArxivID[:2]); err == nil {
			e.Year = 2000 + yy
		}
	}
	// A year the check refuses (a typo: 2302 for 2023) is no year.
	if e.Year != 0 && (e.Year < 1950 || e.Year > time.Now().Year()+1) {
		r.Problems = append(r.Problems, Problem{e.Pos, fmt.Sprintf("%q: the year %d is not between 1950 and next year", e.Title, e.Year)})
		return
	}
	if e.Year != 0 && e.Date != "" && !strings.HasPrefix(e.Date, strconv.Itoa(e.Year)) {
		e.Date = ""
	}
	// A relative or mistyped link ("./paper.pdf", "htttps://…") would
	// fail the check and stop the whole import: the entry goes without
	// it (its arXiv or DOI link, else it is reported).
	badURL := ""
	if u := webLink(e.URL); u == "" && e.URL != "" {
		badURL = e.URL
	}
	e.URL, e.Code, e.Project = webLink(e.URL), webLink(e.Code), webLink(e.Project)
	// The paper's link names its arXiv id, not another arXiv link of
	// the item (a dataset's, a related paper's).
	if id, ok := corpus.ParseArxivID(e.URL); ok {
		e.ArxivID = id
	}
	if e.URL == "" && e.ArxivID != "" {
		e.URL = webLink("https://arxiv.org/abs/" + e.ArxivID)
	}
	if e.URL == "" && e.DOI != "" {
		// Escaped: a DOI may hold characters a URL may not
		// ("10.1002/(SICI)1097-4571<3::AID>3.0.CO;2-X").
		e.URL = webLink((&url.URL{Scheme: "https", Host: "doi.org", Path: "/" + e.DOI}).String())
	}
	h := hints[cmp.Or(e.format, Markdown)]
	switch {
	case e.Title != "" && r.find(e) != nil:
		// Listed again without its link or date: a cross-listing of a
		// paper read already.
		r.add(e)
	case e.Title == "":
		r.Problems = append(r.Problems, Problem{e.Pos, "no title: " + h[0]})
	case e.Year == 0:
		r.Problems = append(r.Problems, Problem{e.Pos, fmt.Sprintf("%q has no year: %s", e.Title, h[1])})
	case e.URL == "" && badURL != "":
		r.Problems = append(r.Problems, Problem{e.Pos, fmt.Sprintf("%q has no link: %q is not an absolute http or https URL", e.Title, badURL)})
	case e.URL == "":
		r.Problems = append(r.Problems, Problem{e.Pos, fmt.Sprintf("%q has no link: %s", e.Title, h[2])})
	default:
		r.add(e)
	}
}

// Report writes what the import read: the formats, the counts and every
// item left out, one FILE:line: line each.
func (r *Result) Report(w io.Writer) {
	for _, f := range r.Formats {
		fmt.Fprintf(w, "%s\n", f)
	}
	fmt.Fprintf(w, "%d entries, %d %s values, %d cross-listings merged, %d items not read\n",
		len(r.Entries), len(r.Values), Field, r.Merged, len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintln(w, p)
	}
}

// columns is the header of the papers.csv an import writes.
var columns = []string{"key", "title", "year", "date", "url", "arxiv_id", "doi", Field, "code", "project", "first_author", "venue", "one_liner"}

// Files returns the list's files: papers.csv, papers.bib, vocab.yaml and
// masrl.yaml, in canonical form. taken says which keys are in use
// already (nil: none).
func (r *Result) Files(taken func(string) bool) (map[string][]byte, error) {
	if len(r.Entries) == 0 {
		return nil, fmt.Errorf("no entry could be read")
	}
	var csvb, bib bytes.Buffer
	cw := csv.NewWriter(&csvb)
	_ = cw.Write(columns)
	fallback := r.fallbackValue()
	for i, d := range r.drafts(taken) {
		if e := r.Entries[i]; len(e.Values) == 0 {
			d.Row[Field] = fallback
		}
		_ = cw.Write(d.Record(columns))
		bib.WriteString(d.BibText)
		bib.WriteString("\n")
	}
	cw.Flush()
	papers, err := corpus.FormatCSV("papers.csv", csvb.Bytes())
	if err != nil {
		return nil, err
	}
	bibf, err := corpus.FormatBib("papers.bib", bib.Bytes())
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"papers.csv": papers,
		"papers.bib": bibf,
		"vocab.yaml": r.vocab(),
		"masrl.yaml": []byte("title: " + yamlString(cmp.Or(r.Title, "Imported list")) + "\ndescription: " + yamlString("Papers imported by masrl import.") + "\n"),
	}, nil
}

// drafts returns each entry's row and BibTeX entry (intake.NewDraft, as
// masrl add drafts them), with keys unique among themselves and not
// taken; the row's Field cell holds the entry's values.
func (r *Result) drafts(taken func(string) bool) []*intake.Draft {
	keys := map[string]bool{}
	isTaken := func(k string) bool { return keys[k] || taken != nil && taken(k) }
	out := make([]*intake.Draft, 0, len(r.Entries))
	for _, e := range r.Entries {
		m := &intake.Metadata{Title: e.Title, Authors: e.Authors, Year: e.Year, Venue: e.Venue, URL: e.URL, ArxivID: e.ArxivID, DOI: e.DOI}
		switch {
		case e.venueField == "booktitle":
			m.Kind, m.Booktitle = "inproceedings", e.Venue
		case e.venueField == "journal":
			m.Kind, m.Journal = "article", e.Venue
		case e.ArxivID != "":
			m.Kind, m.Journal = "article", "arXiv preprint arXiv:"+e.ArxivID
		}
		key := intake.DeriveKey(asciiNames(m), func(k string) bool { return isTaken(k) || isTaken(intake.BibKey(k, m.Year)) })
		keys[key], keys[intake.BibKey(key, m.Year)] = true, true
		d := intake.NewDraft(m, key, map[string]string{Field: strings.Join(e.Values, "; ")}, oneLine(e.OneLiner), "")
		d.Row["date"], d.Row["doi"], d.Row["code"], d.Row["project"] = e.Date, e.DOI, e.Code, e.Project
		d.Row["title"] = oneLine(e.Title)
		d.Row["venue"] = oneLine(e.Venue)
		out = append(out, d)
	}
	return out
}

// fallbackValue is the value of entries filed under no heading: the
// field needs one in every row.
func (r *Result) fallbackValue() string {
	for _, e := range r.Entries {
		if len(e.Values) == 0 {
			return r.addValue("Papers", "")
		}
	}
	return ""
}

// vocab writes vocab.yaml: one multi-valued field whose values are the
// headings (or keywords), and the code and project link columns.
func (r *Result) vocab() []byte {
	var b strings.Builder
	b.WriteString("# Written by masrl import: the headings (or keywords) of the imported list.\n")
	b.WriteString("fields:\n  - name: " + Field + "\n    label: Topic\n    definition: " + yamlString("Where the imported list filed the paper; a paper may sit under several.") + "\n    multiple: true\n    values:\n")
	for _, v := range r.Values {
		b.WriteString("      - value: " + yamlString(v.Value) + "\n        label: " + yamlString(v.Label) + "\n")
		if v.Parent != "" {
			b.WriteString("        parent: " + yamlString(v.Parent) + "\n")
		}
	}
	b.WriteString("links:\n  - name: code\n    label: code\n  - name: project\n    label: project\n")
	return []byte(b.String())
}

// yamlString quotes s as a YAML double-quoted scalar (JSON's escapes are
// YAML's).
func yamlString(s string) string { return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD")) }

// cleanText is s on one line without the characters the check refuses
// in published text: control characters (a NUL in a README, a form
// feed), and bidirectional embeddings, overrides and isolates, which
// an import cannot tell are balanced.
func cleanText(s string) string {
	return oneLine(strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
			return ' '
		case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
			return -1
		}
		return r
	}, s))
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// personName splits "Shunyu Yao" into given names and family name
// (lowercase particles before the last word belong to the family), or
// takes "Yao, Shunyu" as written.
func personName(s string) intake.Author {
	s = oneLine(strings.Trim(s, " .,;*_"))
	if fam, given, ok := strings.Cut(s, ","); ok {
		return intake.Author{Family: strings.TrimSpace(fam), Given: strings.TrimSpace(given)}
	}
	w := strings.Fields(s)
	if len(w) < 2 {
		return intake.Author{Literal: s}
	}
	i := len(w) - 1
	for i > 1 && w[i-1] != "" && unicode.IsLower([]rune(w[i-1])[0]) {
		i--
	}
	return intake.Author{Given: strings.Join(w[:i], " "), Family: strings.Join(w[i:], " ")}
}

// asciiNames is m with its title and names folded to ASCII letters
// (Müller → Muller), from which keys are derived: corpus.Slug keeps
// ASCII letters only.
func asciiNames(m *intake.Metadata) *intake.Metadata {
	c := *m
	c.Title = fold(m.Title)
	c.Authors = nil
	for _, a := range m.Authors {
		c.Authors = append(c.Authors, intake.Author{Given: fold(a.Given), Family: fold(a.Family), Literal: fold(a.Literal)})
	}
	return &c
}

// fold drops the combining marks of s's decomposed letters.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}
