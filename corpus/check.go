package corpus

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/masrl/masrl/internal/suggest"
)

// CheckOptions are the inputs of Check besides the corpus.
type CheckOptions struct {
	// Today bounds years (at most next year) and screening dates (not in
	// the future). Tests pass a fixed day so that results do not age.
	Today time.Time
	// NoSources leaves the text of papers.csv and excluded.csv unkept
	// when Open loads them (Corpus.Source then has none, and a site
	// could not publish them): masrl check publishes nothing, and the
	// text of a 100,000-entry papers.csv is a fifth of its memory.
	NoSources bool
}

// keyPattern is a lowercase slug: a key becomes a URL path on the site, so
// it may not contain anything a path could interpret. The row schema
// publishes it.
var keyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// IsKey reports whether s has the shape of a papers.csv key, a lowercase
// slug; the site relies on it to use keys as directory names.
func IsKey(s string) bool { return keyPattern.MatchString(s) }

var recordIDPattern = regexp.MustCompile(`^E[0-9]{3}$`)

// optionalPaperColumns may be empty in the survey's papers.csv; every
// other column of its declared header is required.
var optionalPaperColumns = [...]string{"affiliation", "arxiv_id", "notes"}

// freeColumns are the columns besides the required ones that masrl reads
// when a list has them (the entry page, the list, BibTeX matching); in a
// list whose vocabulary declares no exact header they may be missing or
// empty.
var freeColumns = [...]string{"first_author", "affiliation", "arxiv_id", "venue", "one_liner", "notes"}

// Check returns every finding about the corpus, sorted by file and
// position: problems met while loading and the violations of the rules
// below. It never stops at the first problem.
func Check(c *Corpus, v *Vocabulary, opt CheckOptions) Diagnostics {
	ds, _ := check(c, v, opt, nil, false)
	return ds
}

// check is Check that, with keep, also returns what the next check of
// the corpus reopened after an edit reuses (checkMemo), reusing prev's.
func check(c *Corpus, v *Vocabulary, opt CheckOptions, prev *checkMemo, keep bool) (Diagnostics, *checkMemo) {
	if opt.Today.IsZero() {
		opt.Today = time.Now()
	}
	var memo *checkMemo
	if keep {
		memo = newCheckMemo(c, v, opt.Today, prev)
	}
	// The rules of each file read the corpus and write only their own
	// findings, so they run at once, one goroutine per file: at 100,000
	// entries Check is a sequential step of every build. The findings
	// are joined in a fixed order and sorted, as before.
	groups := []func(*checker){(*checker).papers}
	if c.HasExcluded {
		groups = append(groups, (*checker).excluded)
	} else if len(v.FieldsOf(ExcludedFile)) > 0 && c.wholeDir {
		// The exclusion log is optional. A list whose vocabulary controls
		// excluded.csv (the survey's stage) is told it has none: its site
		// keeps an empty exclusions page. A list that declares no field
		// of it has neither the page nor the warning.
		groups = append(groups, func(ck *checker) {
			ck.ds.add(Warning, Pos{File: filepath.Join(c.Dir, ExcludedFile)}, "", "", "missing: the list has no exclusion log, so its exclusions page is empty")
		})
	}
	if c.HasBib {
		groups = append(groups, (*checker).bib)
	}
	if c.HasSpotcheck {
		groups = append(groups, (*checker).spotcheck)
	}
	found := make([]Diagnostics, len(groups))
	var wg sync.WaitGroup
	for i, rules := range groups {
		wg.Go(func() { rules(&checker{c: c, v: v, opt: opt, ds: &found[i], memo: memo}) })
	}
	wg.Wait()
	ds := append(Diagnostics(nil), c.loadDiags...)
	for _, f := range found {
		ds = append(ds, f...)
	}
	ds.Sort()
	if memo != nil {
		memo.prev = nil // the next check reuses this one's rows, not older ones
	}
	return ds, memo
}

// ReadErrors returns the errors met reading the corpus's CSV files: CSV
// syntax, a record of the wrong length, text textProblems refuses, CR-only
// line ends, a file without even a header. stats and diff refuse a corpus
// that has any, because what they would count is what was left of a file
// (an unbalanced quote swallows the rows after it; an empty papers.csv
// reads as every entry removed). Check reports the same errors among its
// findings.
func (c *Corpus) ReadErrors() Diagnostics {
	var ds Diagnostics
	for _, d := range c.loadDiags {
		if d.Severity == Error && strings.HasSuffix(d.Pos.File, ".csv") {
			ds = append(ds, d)
		}
	}
	for _, t := range []*table{c.papers, c.excluded, c.spotcheck} {
		if t != nil && t.header == nil && !slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Pos.File == t.file }) {
			ds.add(Error, Pos{File: t.file, Line: 1, Col: 1}, "", "", "empty file: a CSV file needs at least its header row (masrl check names the columns)")
		}
	}
	ds.Sort()
	return ds
}

type checker struct {
	c   *Corpus
	v   *Vocabulary
	opt CheckOptions
	ds  *Diagnostics
	// memo keeps each row's findings for the next check and gives those
	// of the check before (checkMemo); nil: every row is checked.
	memo *checkMemo
	// sameAsRetained holds, for each excluded record, the retained rows
	// that may be the same paper (alsoRetainedCandidates); built on first
	// use.
	sameAsRetained [][]int
}

// exclusionKeys are what alsoRetained compares of an excluded record: the
// arXiv id in its identifier or URL, its URL and its normalized label.
func exclusionKeys(x *Exclusion) (id, url, title string) {
	return findArxivID(x.Identifier + " " + x.URL), strings.TrimRight(strings.TrimSpace(x.URL), "/"), normalizeTitle(x.ScreeningLabel)
}

// alsoRetainedCandidates returns, for each excluded record, in row order
// and without repeats, the retained rows that share its arXiv id, a URL or
// its normalized title. It indexes the few exclusions and passes over the
// rows once, normalizing each title into a reused buffer: at 10,000 rows
// an index of the rows cost a map entry and a string per row and field.
func alsoRetainedCandidates(papers []*Entry, excluded []Exclusion) [][]int {
	byID, byURL, byTitle := map[string][]int{}, map[string][]int{}, map[string][]int{}
	for j := range excluded {
		id, url, title := exclusionKeys(&excluded[j])
		if id != "" {
			byID[id] = append(byID[id], j)
		}
		if url != "" {
			byURL[url] = append(byURL[url], j)
		}
		if title != "" {
			byTitle[title] = append(byTitle[title], j)
		}
	}
	out := make([][]int, len(excluded))
	add := func(js []int, i int) {
		for _, j := range js {
			if n := len(out[j]); n == 0 || out[j][n-1] != i {
				out[j] = append(out[j], i)
			}
		}
	}
	var buf []byte
	for i := range papers {
		e := papers[i]
		if id := baseArxivID(e.ArxivID); id != "" {
			add(byID[id], i)
		}
		for _, u := range e.URLs {
			add(byURL[strings.TrimRight(u, "/")], i)
		}
		if buf = appendNormalizedTitle(buf[:0], e.Title); len(buf) > 0 {
			add(byTitle[string(buf)], i)
		}
	}
	return out
}

// header checks that a CSV header is exactly want, in order, and names
// every missing, unknown, repeated or misplaced column.
func (ck *checker) header(t *table, want []string) {
	if t == nil {
		return
	}
	if t.header == nil {
		ck.ds.add(Error, Pos{File: t.file, Line: 1, Col: 1}, "", "", "empty file: the header must be %s", strings.Join(want, ","))
		return
	}
	pos := func(i int) Pos {
		return Pos{File: t.file, Line: int(t.headerPos[i].line), Col: int(t.headerPos[i].col)}
	}
	endPos := pos(len(t.header) - 1)
	var missing []string
	for _, w := range want {
		if !slices.Contains(t.header, w) {
			missing = append(missing, w)
		}
	}
	seen := map[string]int{}
	misplaced := false
	for i, h := range t.header {
		switch first, dup := seen[h]; {
		case dup:
			ck.ds.add(Error, pos(i), "header", h, "column %q repeated (first at column %d)", h, first+1)
		case !slices.Contains(want, h):
			d := ck.ds.add(Error, pos(i), "header", h, "unknown column %q", h)
			if n := suggest.Nearest(h, missing); n != "" {
				d.Message = fmt.Sprintf("column %q is misspelled or renamed", h)
				d.Nearest = n
			}
		case i >= len(want) || want[i] != h:
			misplaced = true
		}
		if _, dup := seen[h]; !dup {
			seen[h] = i
		}
	}
	for _, m := range missing {
		ck.ds.add(Error, endPos, "header", "", "missing column %q", m)
	}
	if misplaced || len(t.header) != len(want) {
		ck.ds.add(Error, Pos{File: t.file, Line: 1, Col: 1}, "header", "", "the header must be exactly these %d columns in this order: %s", len(want), strings.Join(want, ","))
	}
}

// notInVocabulary reports a value of a controlled field that its
// vocabulary lacks (f.Term(value) == nil); the caller asks first, so
// that a row's positions are looked up only for a finding.
func (ck *checker) notInVocabulary(pos Pos, f *Field, value string) {
	field := f.Name
	msg := fmt.Sprintf("%q is not in the vocabulary", value)
	if value == "" {
		msg = "empty; a controlled field needs a value (NA where the vocabulary has it)"
	}
	d := ck.ds.add(Error, pos, field, value, "%s", msg)
	d.Allowed = f.Allowed()
	if value != "" {
		d.Nearest = f.Nearest(value)
	}
}

// multiValues checks the cell of a multi-valued field: at least one
// value, each in the vocabulary, none empty between separators and none
// twice. Each finding is at its value's place in the cell.
func (ck *checker) multiValues(e *Entry, f *Field, cell string) {
	start := e.Pos(f.Name)
	if strings.TrimSpace(cell) == "" {
		ck.notInVocabulary(start, f, "")
		return
	}
	seen := make(map[string]bool, 2)
	off := 0
	for raw := range strings.SplitSeq(cell, ValueSeparator) {
		val := strings.TrimSpace(raw)
		p := start
		p.Col += off + strings.Index(raw, val)
		if val == "" {
			p.Col = start.Col + off
		}
		off += len(raw) + len(ValueSeparator)
		switch {
		case val == "":
			ck.ds.add(Error, p, f.Name, cell, "an empty value between ';' separators; write the values as %q", f.Join(nonEmpty(f.Split(cell))))
		case seen[val]:
			ck.ds.add(Error, p, f.Name, val, "%q repeated in the cell; each value once", val)
		case f.Term(val) == nil:
			ck.notInVocabulary(p, f, val)
		}
		seen[val] = true
	}
}

// nonEmpty returns vals without the empty ones.
func nonEmpty(vals []string) []string {
	var out []string
	for _, v := range vals {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// outerSpace reports whether a value has leading or trailing white
// space, which makes two equal-looking values differ.
func outerSpace(value string) bool { return value != strings.TrimSpace(value) }

// whitespace warns about a value with outerSpace; the caller asks first.
func (ck *checker) whitespace(pos Pos, field, value string) {
	ck.ds.add(Warning, pos, field, value, "leading or trailing white space")
}

// paperHeader checks the header of papers.csv against the vocabulary: the
// exact columns it declares, or, without them, the columns every list
// needs (required) in any order, each once.
func (ck *checker) paperHeader(t *table) {
	if ck.v.Columns != nil {
		ck.header(t, ck.v.Columns)
		return
	}
	if t == nil {
		return
	}
	need := ck.requiredColumns()
	if t.header == nil {
		ck.ds.add(Error, Pos{File: t.file, Line: 1, Col: 1}, "", "", "empty file: the header must hold at least %s", strings.Join(need, ","))
		return
	}
	pos := func(i int) Pos {
		return Pos{File: t.file, Line: int(t.headerPos[i].line), Col: int(t.headerPos[i].col)}
	}
	var missing []string
	for _, w := range need {
		if !slices.Contains(t.header, w) {
			missing = append(missing, w)
		}
	}
	seen := map[string]int{}
	for i, h := range t.header {
		if first, dup := seen[h]; dup {
			ck.ds.add(Error, pos(i), "header", h, "column %q repeated (first at column %d)", h, first+1)
			continue
		}
		seen[h] = i
		if h == "" {
			ck.ds.add(Error, pos(i), "header", h, "a column needs a name")
		} else if n := suggest.Nearest(h, missing); n != "" {
			d := ck.ds.add(Error, pos(i), "header", h, "column %q is misspelled or renamed", h)
			d.Nearest = n
		}
	}
	for _, m := range missing {
		ck.ds.add(Error, pos(len(t.header)-1), "header", "", "missing column %q; a list needs %s (any order; other columns are free text)", m, strings.Join(need, ", "))
	}
}

// requiredColumns are the columns papers.csv must have when the
// vocabulary declares no exact header: key, title, year, url and every
// controlled field of papers.csv.
func (ck *checker) requiredColumns() []string {
	need := slices.Clone(requiredColumns[:])
	for _, f := range ck.v.FieldsOf(PapersFile) {
		need = append(need, f.Name)
	}
	return need
}

// nonEmptyColumns are the columns whose value every row must give, besides
// the controlled fields (Vocabulary.NonEmptyColumns).
func (ck *checker) nonEmptyColumns() []string { return ck.v.NonEmptyColumns() }

// NonEmptyColumns are the columns of papers.csv whose value every row
// must give, besides the controlled fields: with a declared header, all of
// it but the optional columns (the survey's rule); else key, title, year
// and url. The check and masrl add (which asks only for these) share it.
func (v *Vocabulary) NonEmptyColumns() []string {
	if v.Columns == nil {
		return requiredColumns[:]
	}
	var out []string
	for _, c := range v.Columns {
		if !slices.Contains(optionalPaperColumns[:], c) {
			out = append(out, c)
		}
	}
	return out
}

func (ck *checker) papers() {
	c := ck.c
	t := c.papers
	ck.paperHeader(t)
	if t == nil || t.header == nil {
		return
	}
	cols, required, controlled, values, tags := ck.rowColumns(t)
	keys := make(map[string]int, len(c.Papers))
	titles := make(map[string]int, len(c.Papers))
	nextYear := ck.opt.Today.Year() + 1
	// The rules of one row read that row alone: a row the last check saw
	// (the same record, kept by Reopen) gives its findings again, moved
	// by as many lines as the row moved; only the rows that changed are
	// checked. The duplicate keys and titles read every row and are
	// checked again over all of them, which is a map lookup a row.
	memo := ck.memo
	for i := range c.Papers {
		e := c.Papers[i]
		id := rowID(e)
		old, seen := memo.prevRow(id)
		var row rowFindings
		if seen {
			row = old.moved(e.Line)
			memo.reused++
		} else {
			row.line = e.Line
			row.before = ck.rowFindings(func() {
				ck.rowValues(e, cols, required, controlled, values, tags)
			})
			row.after = ck.rowFindings(func() {
				ck.rowRest(e, nextYear)
			})
		}
		memo.keepRow(id, row)
		*ck.ds = append(*ck.ds, row.before...)
		if e.Key != "" {
			if first, dup := keys[e.Key]; dup {
				ck.ds.add(Error, e.Pos("key"), "key", e.Key, "duplicate key %q; first used on line %d", e.Key, c.Papers[first].Line)
			} else {
				keys[e.Key] = i
			}
		}
		*ck.ds = append(*ck.ds, row.after...)
		if nt := normalizeTitle(e.Title); nt != "" {
			if first, dup := titles[nt]; dup {
				d := ck.ds.add(Warning, e.Pos("title"), "title", e.Title, "same title as %q on line %d", c.Papers[first].Key, c.Papers[first].Line)
				d.Keys = []string{c.Papers[first].Key, e.Key}
			} else {
				titles[nt] = i
			}
		}
	}
}

// rowColumns decides once what the row rules ask of each column of
// papers.csv (table t): the columns read from each row (the declared
// header, or the required columns and those of the file's header),
// whether each must be non-empty (a controlled field says so itself),
// the controlled fields, and readers of both. Positions are looked up
// only for a finding.
func (ck *checker) rowColumns(t *table) (cols []string, required []bool, controlled []*Field, values, tags *columnReader) {
	c := ck.c
	cols = ck.v.Columns
	if cols == nil {
		cols = ck.requiredColumns()
		for _, h := range t.header {
			if !slices.Contains(cols, h) {
				cols = append(cols, h)
			}
		}
	}
	nonEmpty := ck.nonEmptyColumns()
	required = make([]bool, len(cols))
	for j, col := range cols {
		required[j] = slices.Contains(nonEmpty, col) && ck.v.Field(col) == nil
	}
	controlled = ck.v.FieldsOf(PapersFile)
	values = newColumnReader(c.Papers, cols)
	var names []string
	for _, f := range controlled {
		names = append(names, f.Name)
	}
	tags = newColumnReader(c.Papers, names)
	return cols, required, controlled, values, tags
}

// rowFindings runs rules and returns what they found, apart from the
// findings of the rest of the check.
func (ck *checker) rowFindings(rules func()) Diagnostics {
	saved := ck.ds
	var ds Diagnostics
	ck.ds = &ds
	rules()
	ck.ds = saved
	return ds
}

// rowValues checks a row's columns: required values, outer spaces, the
// controlled fields' terms and the key's shape.
func (ck *checker) rowValues(e *Entry, cols []string, required []bool, controlled []*Field, values, tags *columnReader) {
	for j, col := range cols {
		val := values.value(e, j)
		if val == "" && required[j] {
			ck.ds.add(Error, e.Pos(col), col, "", "required field is empty")
		}
		if outerSpace(val) {
			ck.whitespace(e.Pos(col), col, val)
		}
	}
	for j, f := range controlled {
		if !f.Multiple {
			if val := tags.value(e, j); f.Term(val) == nil {
				ck.notInVocabulary(e.Pos(f.Name), f, val)
			}
			continue
		}
		ck.multiValues(e, f, tags.value(e, j))
	}
	if e.Key != "" && !IsKey(e.Key) {
		d := ck.ds.add(Error, e.Pos("key"), "key", e.Key, "%q is not a lowercase slug [a-z0-9][a-z0-9-]*; the key becomes a URL path", e.Key)
		if s := Slug(e.Key); s != "" {
			d.Nearest = s
		}
	}
}

// rowRest checks a row's year, dates, arXiv id and links.
func (ck *checker) rowRest(e *Entry, nextYear int) {
	if y := strings.TrimSpace(e.YearText); y != "" {
		n, err := strconv.Atoi(y)
		if len(y) != 4 || err != nil || n < 1950 || n > nextYear {
			ck.ds.add(Error, e.Pos("year"), "year", e.YearText, "%q: a year must be four digits between 1950 and %d", e.YearText, nextYear)
		}
	}
	ck.dates(e)
	if e.ArxivID != "" && !IsArxivID(e.ArxivID) {
		ck.ds.add(Error, e.Pos("arxiv_id"), "arxiv_id", e.ArxivID, "%q is not a new-style arXiv id like 2508.04652 or 2508.04652v2; leave it empty for non-arXiv entries", e.ArxivID)
	}
	ck.urls(e)
	for _, l := range ck.v.Links {
		if s := e.Value(l.Name); s != "" {
			if _, ok := webURL(s); !ok {
				ck.ds.add(Error, e.Pos(l.Name), l.Name, s, "%s; a link column holds one http(s) URL or nothing", urlProblem(s))
			}
		}
	}
}

// Date columns a list may have: date, when the work appeared (YYYY,
// YYYY-MM or YYYY-MM-DD), which orders a year's entries; added, the day
// the row joined the list (YYYY-MM-DD), which the feed dates it by.
const (
	DateColumn  = "date"
	AddedColumn = "added"
)

// ParseDate reads a date column's value: YYYY, YYYY-MM or YYYY-MM-DD, a
// real day of the calendar. It returns the first day of the period.
func ParseDate(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
		if len(s) == len(layout) {
			t, err := time.Parse(layout, s)
			return t, err == nil
		}
	}
	return time.Time{}, false
}

// dates checks the optional date and added columns of e: a date in one
// of its forms whose year is the row's year, an added day that is not in
// the future.
func (ck *checker) dates(e *Entry) {
	if d := e.Value(DateColumn); d != "" {
		if _, ok := ParseDate(d); !ok {
			ck.ds.add(Error, e.Pos(DateColumn), DateColumn, d, "%q: a date is YYYY, YYYY-MM or YYYY-MM-DD (2023-05), a real day", d)
		} else if y := strings.TrimSpace(e.YearText); y != "" && !strings.HasPrefix(d, y) {
			ck.ds.add(Error, e.Pos(DateColumn), DateColumn, d, "date %s is not in the row's year %s", d, y)
		}
	}
	if a := e.Value(AddedColumn); a != "" {
		t, ok := ParseDate(a)
		switch {
		case !ok || len(a) != len(time.DateOnly):
			ck.ds.add(Error, e.Pos(AddedColumn), AddedColumn, a, "%q: added is the day the row joined the list, YYYY-MM-DD", a)
		case t.After(ck.opt.Today):
			ck.ds.add(Error, e.Pos(AddedColumn), AddedColumn, a, "added %s is after today (%s)", a, ck.opt.Today.Format(time.DateOnly))
		}
	}
}

// urls checks the url column of e: one or more absolute http(s) URLs
// separated by ';', and an arxiv.org URL must carry the row's arxiv_id.
func (ck *checker) urls(e *Entry) {
	arxivID := e.ArxivID
	for _, s := range SplitURLs(e.URL) {
		u, ok := webURL(s)
		if !ok {
			msg := urlProblem(s)
			if !strings.Contains(msg, "user info") {
				msg += "; separate several URLs with ' ; '"
			}
			ck.ds.add(Error, e.Pos("url"), "url", s, "%s", msg)
			continue
		}
		if id, onArxiv := arxivIDOfURL(u); onArxiv && id != "" && id != baseArxivID(arxivID) {
			if arxivID == "" {
				ck.ds.add(Error, e.Pos("url"), "url", s, "links arXiv %s but arxiv_id is empty", id)
			} else {
				ck.ds.add(Error, e.Pos("url"), "url", s, "links arXiv %s but arxiv_id is %s", id, arxivID)
			}
		}
	}
}

func (ck *checker) excluded() {
	c := ck.c
	t := c.excluded
	ck.header(t, excludedColumns[:])
	if t == nil || t.header == nil {
		return
	}
	ids := map[string]int{}
	controlled := ck.v.FieldsOf(ExcludedFile)
	today := ck.opt.Today.Format(time.DateOnly)
	for i := range c.Excluded {
		x := &c.Excluded[i]
		for _, col := range excludedColumns {
			val := x.Value(col)
			if val == "" && ck.v.Field(col) == nil {
				ck.ds.add(Error, x.Pos(col), col, "", "required field is empty")
			}
			if outerSpace(val) {
				ck.whitespace(x.Pos(col), col, val)
			}
		}
		for _, f := range controlled {
			if val := x.Value(f.Name); f.Term(val) == nil {
				ck.notInVocabulary(x.Pos(f.Name), f, val)
			}
		}
		if x.RecordID != "" {
			if !recordIDPattern.MatchString(x.RecordID) {
				ck.ds.add(Error, x.Pos("record_id"), "record_id", x.RecordID, "%q: a record_id is E followed by three digits, like E007", x.RecordID)
			}
			if first, dup := ids[x.RecordID]; dup {
				ck.ds.add(Error, x.Pos("record_id"), "record_id", x.RecordID, "duplicate record_id %s; first used on line %d", x.RecordID, c.Excluded[first].Line)
			} else {
				ids[x.RecordID] = i
			}
		}
		if x.URL != "" && !IsWebURL(x.URL) {
			ck.ds.add(Error, x.Pos("url"), "url", x.URL, "%s", urlProblem(x.URL))
		}
		if x.DateScreened != "" {
			if _, err := time.Parse(time.DateOnly, x.DateScreened); err != nil {
				ck.ds.add(Error, x.Pos("date_screened"), "date_screened", x.DateScreened, "%q is not an ISO date YYYY-MM-DD", x.DateScreened)
			} else if x.DateScreened > today {
				ck.ds.add(Error, x.Pos("date_screened"), "date_screened", x.DateScreened, "%s is in the future (today is %s)", x.DateScreened, today)
			}
		}
		ck.alsoRetained(i)
	}
}

// alsoRetained reports the excluded record j when it is also a retained
// entry: the same arXiv id, the same URL or the same normalized title.
func (ck *checker) alsoRetained(j int) {
	x := &ck.c.Excluded[j]
	xid, xurl, xtitle := exclusionKeys(x)
	if ck.sameAsRetained == nil {
		ck.sameAsRetained = alsoRetainedCandidates(ck.c.Papers, ck.c.Excluded)
	}
	for _, i := range ck.sameAsRetained[j] {
		e := ck.c.Papers[i]
		var why string
		switch {
		case xid != "" && baseArxivID(e.ArxivID) == xid:
			why = "the same arXiv id " + xid
		case xurl != "" && slices.ContainsFunc(e.URLs, func(u string) bool { return strings.TrimRight(u, "/") == xurl }):
			why = "the same URL"
		case xtitle != "" && normalizeTitle(e.Title) == xtitle:
			why = "the same title"
		default:
			continue
		}
		d := ck.ds.add(Error, x.Pos("record_id"), "record_id", x.RecordID,
			"excluded record %s is also retained as %q (%s, line %d): %s", x.RecordID, e.Key, e.file, e.Line, why)
		d.Keys = []string{e.Key}
	}
}

func (ck *checker) bib() {
	c := ck.c
	used := make([]bool, len(c.Bib))
	first := make(map[string]int, len(c.Bib))
	for i, b := range c.Bib {
		if j, dup := first[b.Key]; dup {
			ck.ds.add(Warning, b.Pos, "bib", b.Key, "BibTeX key repeated (first on line %d)", c.Bib[j].Pos.Line)
			used[i] = true // reported once, as a repeat
			continue
		}
		first[b.Key] = i
	}
	// A row's matches and findings read the row and papers.bib alone:
	// an unchanged row on an unchanged line of an unchanged papers.bib
	// gives those of the check before.
	for i := range c.Papers {
		e := c.Papers[i]
		id := rowID(e)
		row, ok := ck.memo.prevBib(id, e.Line)
		if !ok {
			row = bibFindings{line: e.Line}
			row.ds = ck.rowFindings(func() { row.found = ck.bibRow(e) })
		}
		*ck.ds = append(*ck.ds, row.ds...)
		ck.memo.keepBib(id, row)
		for _, j := range row.found {
			used[j] = true
		}
	}
	for i, b := range c.Bib {
		if !used[i] {
			ck.ds.add(Warning, b.Pos, "bib", b.Key, "BibTeX entry has no row in %s", PapersFile)
		}
	}
}

// bibRow checks that a row has one BibTeX entry that agrees with it, and
// returns the entries that match it.
func (ck *checker) bibRow(e *Entry) []int {
	c := ck.c
	found := c.bibMatches(e)
	if e.Key == "" {
		return found
	}
	if len(found) == 0 {
		ck.ds.add(Warning, e.Pos("key"), "key", e.Key, "no BibTeX entry in %s (its key should be %s, %s%s or %s-%s)", BibFile, e.Key, e.Key, e.YearText, e.Key, e.YearText)
		return nil
	}
	if len(found) > 1 {
		ck.ds.add(Warning, e.Pos("key"), "key", e.Key, "%d BibTeX entries match; %s is used", len(found), c.Bib[found[0]].Key)
	}
	b := &c.Bib[found[0]]
	if id := b.ArxivID(); id != "" && e.ArxivID != "" && id != baseArxivID(e.ArxivID) {
		ck.ds.add(Warning, b.Pos, "bib", b.Key, "BibTeX cites arXiv %s but row %q (line %d) has arxiv_id %s", id, e.Key, e.Line, e.ArxivID)
	}
	var yearBuf [20]byte
	if y := strings.TrimSpace(b.Fields["year"]); y != "" && e.Year != 0 && y != string(strconv.AppendInt(yearBuf[:0], int64(e.Year), 10)) {
		ck.ds.add(Warning, b.Pos, "bib", b.Key, "BibTeX year %s but row %q (line %d) has year %d", y, e.Key, e.Line, e.Year)
	}
	return found
}

func (ck *checker) spotcheck() {
	c := ck.c
	for i := range c.Audits {
		a := &c.Audits[i]
		e := c.Entry(a.Key)
		if e == nil {
			d := ck.ds.add(Error, a.Pos("key"), "key", a.Key, "audited key %q is not a retained entry", a.Key)
			keys := make([]string, len(c.Papers))
			for j := range c.Papers {
				keys[j] = c.Papers[j].Key
			}
			d.Nearest = suggest.Nearest(a.Key, keys)
			continue
		}
		for _, f := range AuditedFields() {
			if orig, now := a.Orig(f), e.Value(f); orig != now {
				ck.ds.add(Warning, a.Pos("orig_"+f), "orig_"+f, orig,
					"audited as %q but %q is now %q (line %d); the corpus moved on since the audit", orig, a.Key, now, e.Line)
			}
		}
	}
}

// normalizeTitle folds case and drops everything but letters and digits, so
// that "LLM Collaboration" and "LLM collaboration." compare equal. An
// ASCII title, the common case, is folded byte by byte.
func normalizeTitle(s string) string {
	var buf [128]byte
	return string(appendNormalizedTitle(buf[:0], s))
}

// appendNormalizedTitle appends normalizeTitle(s) to b, for a caller
// that only looks it up.
func appendNormalizedTitle(b []byte, s string) []byte {
	start := len(b)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return append(b[:start], normalizeTitleUnicode(s)...)
		case 'a' <= c|0x20 && c|0x20 <= 'z': // a letter in either case
			b = append(b, c|0x20)
		case '0' <= c && c <= '9':
			b = append(b, c)
		}
	}
	return b
}

// normalizeTitleUnicode is normalizeTitle for any text.
func normalizeTitleUnicode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
