package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// paperColumns is the survey's header of papers.csv, in order: the
// columns the embedded data/vocab.yaml declares (Vocabulary.Columns), read
// once. A list's own declaration may name others; these remain the order
// a row is written in when no header says otherwise. The embedded
// vocabulary is part of the binary and tested, so failing to read it is
// a bug in masrl, not bad input.
var paperColumns = sync.OnceValue(func() []string {
	v, err := DefaultVocabulary()
	if err != nil || len(v.Columns) == 0 {
		panic(fmt.Sprintf("masrl: the embedded data/vocab.yaml declares no columns: %v", err))
	}
	return v.Columns
})

// excludedColumns are the 9 columns of excluded.csv, in their required order.
var excludedColumns = [...]string{
	"record_id", "source", "query_family", "screening_label", "identifier", "url",
	"date_screened", "stage", "exclusion_reason",
}

// PaperColumns returns the survey's columns of papers.csv in order.
func PaperColumns() []string { return slices.Clone(paperColumns()) }

// ExcludedColumns returns the columns of excluded.csv in order.
func ExcludedColumns() []string { return append([]string(nil), excludedColumns[:]...) }

// Entry is one retained paper, a row of papers.csv. The columns masrl
// itself reads (key, title, year, url and the optional first_author,
// affiliation, arxiv_id, venue, one_liner, notes) are fields, read as text
// (gocsv would turn an empty year into 0 silently); Year holds the checked
// number and URLs the split url column. Every other column, the controlled
// fields a list declares in its vocabulary among them, is read by name with
// Value: the row keeps its record and the file's header.
type Entry struct {
	Key         string `csv:"key"`
	Title       string `csv:"title"`
	FirstAuthor string `csv:"first_author"`
	Affiliation string `csv:"affiliation"`
	YearText    string `csv:"year"`
	ArxivID     string `csv:"arxiv_id"`
	Venue       string `csv:"venue"`
	URL         string `csv:"url"`
	OneLiner    string `csv:"one_liner"`
	Notes       string `csv:"notes"`

	Year int      `csv:"-"`
	URLs []string `csv:"-"`

	// Line is the line on which the record starts.
	Line int `csv:"-"`
	file string
	// cols is the header of the row's file, shared by its rows; fields
	// and pos hold the record's values and field starts in header order.
	// The site's incremental build does not hash cols (hash:"-"): the
	// header reaches a page only through the values and labels the
	// page's own data holds, and hashing it for every entry cost a walk
	// of its maps per row.
	cols   *rowColumns `hash:"-"`
	fields []string
	pos    []fieldPos
}

// rowColumns is a papers.csv header: its column names and where each is.
// A name that repeats is read from its last occurrence (as gocsv fills
// the fields) and placed at its first (as Check reports it).
type rowColumns struct {
	names       []string
	last, first map[string]int
}

func newRowColumns(header []string) *rowColumns {
	c := &rowColumns{names: header, last: make(map[string]int, len(header)), first: make(map[string]int, len(header))}
	for i, h := range header {
		c.last[h] = i
		if _, ok := c.first[h]; !ok {
			c.first[h] = i
		}
	}
	return c
}

// Exclusion is one screened-but-excluded record, a row of excluded.csv.
type Exclusion struct {
	RecordID        string `csv:"record_id" json:"record_id"`
	Source          string `csv:"source" json:"source"`
	QueryFamily     string `csv:"query_family" json:"query_family"`
	ScreeningLabel  string `csv:"screening_label" json:"screening_label"`
	Identifier      string `csv:"identifier" json:"identifier"`
	URL             string `csv:"url" json:"url"`
	DateScreened    string `csv:"date_screened" json:"date_screened"`
	Stage           string `csv:"stage" json:"stage"`
	ExclusionReason string `csv:"exclusion_reason" json:"exclusion_reason"`

	Line int `csv:"-" json:"line"`
	file string
	pos  [len(excludedColumns)]fieldPos
}

// Audit is one row of spotcheck.csv: a second reader's tags for a retained
// entry next to the tags it had when audited.
type Audit struct {
	Key                  string `csv:"key" json:"key"`
	OrigCategory         string `csv:"orig_category" json:"orig_category"`
	OrigIsRL             string `csv:"orig_is_rl" json:"orig_is_rl"`
	OrigRewardType       string `csv:"orig_reward_type" json:"orig_reward_type"`
	OrigCredit           string `csv:"orig_credit_granularity" json:"orig_credit_granularity"`
	OrigOrchestration    string `csv:"orig_orchestration_form" json:"orig_orchestration_form"`
	AnnCategory          string `csv:"ann_category" json:"ann_category"`
	AnnIsRL              string `csv:"ann_is_rl" json:"ann_is_rl"`
	AnnRewardType        string `csv:"ann_reward_type" json:"ann_reward_type"`
	AnnCredit            string `csv:"ann_credit_granularity" json:"ann_credit_granularity"`
	AnnOrchestration     string `csv:"ann_orchestration_form" json:"ann_orchestration_form"`
	StrictExplicitCredit string `csv:"strict_explicit_credit" json:"strict_explicit_credit"`
	AgreementNote        string `csv:"agreement_note" json:"agreement_note"`
	AnnotatorNote        string `csv:"annotator_note" json:"annotator_note"`

	Line int `csv:"-" json:"line"`
	file string
	// pos holds field starts by column name, because spotcheck.csv's column
	// set is not fixed by the survey.
	pos map[string]fieldPos
}

// AuditedFields are the papers.csv columns the spot-check audit covers, in
// order; for each, Audit holds the original and the second reader's tag.
func AuditedFields() []string {
	return []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form"}
}

// Orig returns the tag the entry had when audited, for one of AuditedFields.
func (a *Audit) Orig(field string) string {
	switch field {
	case "category":
		return a.OrigCategory
	case "is_rl":
		return a.OrigIsRL
	case "reward_type":
		return a.OrigRewardType
	case "credit_granularity":
		return a.OrigCredit
	case "orchestration_form":
		return a.OrigOrchestration
	}
	return ""
}

// Annotated returns the second reader's tag for one of AuditedFields.
func (a *Audit) Annotated(field string) string {
	switch field {
	case "category":
		return a.AnnCategory
	case "is_rl":
		return a.AnnIsRL
	case "reward_type":
		return a.AnnRewardType
	case "credit_granularity":
		return a.AnnCredit
	case "orchestration_form":
		return a.AnnOrchestration
	}
	return ""
}

// Value returns the text of a papers.csv column by name ("" for a column
// the row does not have), so that counting and checking can treat columns
// uniformly.
func (e *Entry) Value(column string) string {
	if p := e.fixed(column); p != nil {
		return *p
	}
	if e.cols != nil {
		if i, ok := e.cols.last[column]; ok && i < len(e.fields) {
			return e.fields[i]
		}
	}
	return ""
}

// Values returns the values of a controlled field the row holds
// (Field.Split of its cell): one for a single-valued field, any number for
// a multi-valued one.
func (e *Entry) Values(f *Field) []string { return f.Split(e.Value(f.Name)) }

// columnReader reads a fixed list of columns from the rows of one file,
// each column's place in the file's header resolved once: Value's answer
// without Value's lookup per call, which was a tenth of the check.
type columnReader struct {
	names []string
	// cols is the header the rows were loaded with; at holds each name's
	// index in it, or -1 for a column Entry holds as a field or the
	// header lacks. A row with another header (built by hand) is read by
	// Value.
	cols *rowColumns
	at   []int
}

func newColumnReader(rows []*Entry, names []string) *columnReader {
	r := &columnReader{names: names, at: make([]int, len(names))}
	if len(rows) > 0 {
		r.cols = rows[0].cols
	}
	for j, name := range names {
		r.at[j] = -1
		if r.cols == nil || IsEntryColumn(name) {
			continue
		}
		if i, ok := r.cols.last[name]; ok {
			r.at[j] = i
		}
	}
	return r
}

// value returns e.Value(r.names[j]).
func (r *columnReader) value(e *Entry, j int) string {
	if i := r.at[j]; i >= 0 && e.cols == r.cols {
		if i < len(e.fields) {
			return e.fields[i]
		}
		return ""
	}
	return e.Value(r.names[j])
}

// fixed returns the field of one of the columns Entry holds as a field,
// or nil.
func (e *Entry) fixed(column string) *string {
	switch column {
	case "key":
		return &e.Key
	case "title":
		return &e.Title
	case "first_author":
		return &e.FirstAuthor
	case "affiliation":
		return &e.Affiliation
	case "year":
		return &e.YearText
	case "arxiv_id":
		return &e.ArxivID
	case "venue":
		return &e.Venue
	case "url":
		return &e.URL
	case "one_liner":
		return &e.OneLiner
	case "notes":
		return &e.Notes
	}
	return nil
}

// IsEntryColumn reports whether Entry holds column as a field: the
// columns masrl itself reads (key, title, year, url and the optional
// first_author, affiliation, arxiv_id, venue, one_liner, notes).
func IsEntryColumn(column string) bool {
	var e Entry
	return e.fixed(column) != nil
}

// SetValue sets a column of a row built by hand (synthetic corpora, tests,
// a drafted row); a column the row lacks is added after its others.
// Setting year or url does not update Year or URLs.
func (e *Entry) SetValue(column, value string) {
	if p := e.fixed(column); p != nil {
		*p = value
		return
	}
	if e.cols != nil {
		if i, ok := e.cols.last[column]; ok && i < len(e.fields) {
			e.fields = append([]string(nil), e.fields...) // a loaded row shares nothing it writes
			e.fields[i] = value
			return
		}
	}
	var names []string
	if e.cols != nil {
		names = e.cols.names
	}
	names = append(slices.Clip(names), column)
	fields := make([]string, len(names))
	copy(fields, e.fields)
	fields[len(names)-1] = value
	e.cols, e.fields = newRowColumns(names), fields
}

// Columns returns the columns of the row: its file's header, or for a row
// built by hand the survey's columns and those set on it.
func (e *Entry) Columns() []string {
	if e.cols != nil && e.file != "" {
		return slices.Clone(e.cols.names)
	}
	out := PaperColumns()
	if e.cols != nil {
		for _, n := range e.cols.names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// MarshalJSON writes the row as papers.json holds it: every column of the
// row in its order, as text, except year and url, which follow as the
// checked year and the list of URLs, then the line.
func (e *Entry) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for _, col := range e.Columns() {
		if col == "year" || col == "url" || seen[col] {
			continue
		}
		seen[col] = true
		k, _ := json.Marshal(col)
		v, _ := json.Marshal(e.Value(col))
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		b.WriteByte(',')
	}
	urls, err := json.Marshal(e.URLs)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, `"year":%d,"urls":%s,"line":%d}`, e.Year, urls, e.Line)
	return b.Bytes(), nil
}

// Value returns the text of an excluded.csv column by name.
func (x *Exclusion) Value(column string) string {
	switch column {
	case "record_id":
		return x.RecordID
	case "source":
		return x.Source
	case "query_family":
		return x.QueryFamily
	case "screening_label":
		return x.ScreeningLabel
	case "identifier":
		return x.Identifier
	case "url":
		return x.URL
	case "date_screened":
		return x.DateScreened
	case "stage":
		return string(x.Stage)
	case "exclusion_reason":
		return x.ExclusionReason
	}
	return ""
}

// fieldPos is where a field starts in its file. int32 keeps a million-row
// corpus's positions compact.
type fieldPos struct{ line, col int32 }

func columnIndex(cols []string, name string) int {
	for i, c := range cols {
		if c == name {
			return i
		}
	}
	return -1
}

// Pos returns where a column of the entry starts; for a column the row
// lacks or a field missing from a short record, the start of the record.
func (e *Entry) Pos(column string) Pos {
	if e.cols != nil {
		if i, ok := e.cols.first[column]; ok && i < len(e.pos) && e.pos[i].line > 0 {
			return Pos{File: e.file, Line: int(e.pos[i].line), Col: int(e.pos[i].col)}
		}
	}
	return Pos{File: e.file, Line: e.Line, Col: 1}
}

// Pos returns where a column of the record starts.
func (x *Exclusion) Pos(column string) Pos {
	if i := columnIndex(excludedColumns[:], column); i >= 0 && x.pos[i].line > 0 {
		return Pos{File: x.file, Line: int(x.pos[i].line), Col: int(x.pos[i].col)}
	}
	return Pos{File: x.file, Line: x.Line, Col: 1}
}

// Pos returns where a column of the audit row starts.
func (a *Audit) Pos(column string) Pos {
	if p, ok := a.pos[column]; ok {
		return Pos{File: a.file, Line: int(p.line), Col: int(p.col)}
	}
	return Pos{File: a.file, Line: a.Line, Col: 1}
}
