package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
)

// cslItem is the part of a CSL JSON item an import reads. Values whose
// type differs between exporters (ids, dates, tags) are kept raw.
type cslItem struct {
	Type           string          `json:"type"`
	Title          string          `json:"title"`
	Author         []cslName       `json:"author"`
	Issued         json.RawMessage `json:"issued"`
	URL            string          `json:"URL"`
	DOI            string          `json:"DOI"`
	Number         string          `json:"number"`
	ContainerTitle string          `json:"container-title"`
	EventTitle     string          `json:"event-title"`
	Keyword        string          `json:"keyword"`
	Tags           json.RawMessage `json:"tags"`
	Collections    json.RawMessage `json:"collections"`
	Note           string          `json:"note"`
}

type cslName struct {
	Family  string `json:"family"`
	Given   string `json:"given"`
	Literal string `json:"literal"`
}

// readCSL reads a CSL JSON export (Zotero's, and most reference
// managers'): an array of items. tags and keyword (or opt.TagField) and
// collections become values of Field. An item whose values have the
// wrong type is a problem at its line; a syntax error stops the file.
func (r *Result) readCSL(name string, src []byte, opt Options) error {
	lines := newLineIndex(src)
	dec := json.NewDecoder(bytes.NewReader(src))
	tok, err := dec.Token()
	if err != nil {
		return jsonError(name, lines, dec.InputOffset(), err)
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("%s:1: CSL JSON is an array of items ([{...}, ...]); this is a %v", name, tok)
	}
	for dec.More() {
		off := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonError(name, lines, dec.InputOffset(), err)
		}
		pos := fmt.Sprintf("%s:%d", name, lines.lineOf(int(off+leadingSpace(src, int(off)))))
		var it cslItem
		if err := json.Unmarshal(raw, &it); err != nil {
			r.Problems = append(r.Problems, Problem{pos, "not a CSL item: " + typeMessage(err)})
			continue
		}
		var extra map[string]json.RawMessage
		_ = json.Unmarshal(raw, &extra)
		r.finish(r.cslEntry(pos, &it, extra, opt))
	}
	if _, err := dec.Token(); err != nil {
		return jsonError(name, lines, dec.InputOffset(), err)
	}
	return nil
}

// leadingSpace counts the white space and commas before the next value
// at off, which InputOffset includes.
func leadingSpace(src []byte, off int) int64 {
	n := 0
	for off+n < len(src) && strings.IndexByte(" \t\r\n,", src[off+n]) >= 0 {
		n++
	}
	return int64(n)
}

func jsonError(name string, lines lineIndex, off int64, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	return fmt.Errorf("%s:%d: not CSL JSON: %v", name, lines.lineOf(int(off)), err)
}

// cslEntry makes the entry of one item.
func (r *Result) cslEntry(pos string, it *cslItem, extra map[string]json.RawMessage, opt Options) *Entry {
	e := &Entry{Pos: pos, Title: oneLine(it.Title), URL: strings.TrimSpace(it.URL), format: CSLJSON}
	for _, a := range it.Author {
		switch {
		case a.Family != "":
			e.Authors = append(e.Authors, personName(a.Family+", "+a.Given))
		case a.Literal != "":
			e.Authors = append(e.Authors, intake.Author{Literal: oneLine(a.Literal)})
		}
	}
	if doi, ok := corpus.ParseDOI(it.DOI); ok {
		e.DOI = doi
	}
	for _, s := range []string{it.Number, it.URL, it.Note} {
		if id, ok := corpus.ParseArxivID(strings.TrimPrefix(strings.TrimSpace(s), "arXiv:")); ok && e.ArxivID == "" {
			e.ArxivID = id
		}
	}
	if e.DOI == "" {
		takeIDs(e, e.URL)
	}
	// A DataCite arXiv DOI (10.48550/arXiv.2210.03629) names the id too.
	if id, ok := strings.CutPrefix(e.DOI, "10.48550/arxiv."); ok && e.ArxivID == "" {
		if id, ok := corpus.ParseArxivID(id); ok {
			e.ArxivID = id
		}
	}
	if v := oneLine(it.ContainerTitle); v != "" && !strings.HasPrefix(strings.ToLower(v), "arxiv") {
		e.Venue = v
	} else if v := oneLine(it.EventTitle); v != "" {
		e.Venue = v
	}
	if e.Venue != "" {
		e.venueField = "journal"
		if it.Type == "paper-conference" {
			e.venueField = "booktitle"
		}
	}
	e.Date = cslDate(it.Issued)
	var tags []string
	if opt.TagField != "" {
		tags = stringsOf(extra[opt.TagField])
	} else {
		tags = append(stringsOf(it.Tags), stringsOf(json.RawMessage(strconv.Quote(it.Keyword)))...)
	}
	tags = append(stringsOf(it.Collections), tags...)
	for _, t := range tags {
		if t = oneLine(t); t != "" {
			if v := r.addValue(t, ""); !slices.Contains(e.Values, v) {
				e.Values = append(e.Values, v)
			}
		}
	}
	return e
}

// stringsOf reads tags as exporters write them: a string of
// comma- or semicolon-separated words, an array of strings, or an array
// of {"tag": "..."} objects (Zotero's).
func stringsOf(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		var out []string
		for t := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == ',' || r == ';' }) {
			out = append(out, strings.TrimSpace(t))
		}
		return out
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []string
	for _, x := range list {
		var t struct {
			Tag string `json:"tag"`
		}
		if json.Unmarshal(x, &s) == nil {
			out = append(out, s)
		} else if json.Unmarshal(x, &t) == nil && t.Tag != "" {
			out = append(out, t.Tag)
		}
	}
	return out
}

// cslDate reads "issued": {"date-parts": [[2023, 5, 17]]} (numbers or
// strings) or {"raw": "2023-05-17"} as YYYY, YYYY-MM or YYYY-MM-DD.
func cslDate(raw json.RawMessage) string {
	var d struct {
		Parts [][]json.RawMessage `json:"date-parts"`
		Raw   string              `json:"raw"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return ""
	}
	if len(d.Parts) == 0 || len(d.Parts[0]) == 0 {
		date, _ := parseDate(d.Raw)
		return date
	}
	var nums []int
	for _, p := range d.Parts[0] {
		n, err := strconv.Atoi(strings.Trim(string(p), `"`))
		if err != nil {
			break
		}
		nums = append(nums, n)
	}
	if len(nums) == 0 || nums[0] < 1000 || nums[0] > 9999 {
		return ""
	}
	s := strconv.Itoa(nums[0])
	if len(nums) > 1 && nums[1] >= 1 && nums[1] <= 12 {
		s += fmt.Sprintf("-%02d", nums[1])
		if len(nums) > 2 {
			if _, ok := corpus.ParseDate(fmt.Sprintf("%s-%02d", s, nums[2])); ok {
				s += fmt.Sprintf("-%02d", nums[2])
			}
		}
	}
	return s
}

// typeMessage says which member of an item has the wrong JSON type, in
// JSON's words rather than Go's.
func typeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	want := "another type"
	switch te.Type.Kind() {
	case reflect.Slice:
		want = "an array"
	case reflect.Struct, reflect.Map:
		want = "an object"
	case reflect.String:
		want = "a string"
	}
	field := te.Field
	if i := strings.LastIndexByte(field, '.'); i >= 0 && !strings.HasPrefix(field, "author") {
		field = field[i+1:]
	}
	return fmt.Sprintf("%q is a JSON %s; CSL JSON has %s there", field, te.Value, want)
}
