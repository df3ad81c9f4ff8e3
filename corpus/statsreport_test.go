package corpus

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestStatsReportEscapes: a value outside the vocabulary is the corpus's
// text; the markdown report keeps it inside its table cell and inert,
// and the CSV report defuses it for a spreadsheet.
func TestStatsReportEscapes(t *testing.T) {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	s := Stats{Retained: 1, Histograms: []*Histogram{{
		Field: "category", Total: 1,
		Other: []Cell{{Value: "=a|<b>\nc", Count: 1, Keys: []string{"k1"}}},
	}}}
	md := s.Markdown(v)
	for _, want := range []string{"| entries | 1 |\n", "| =a\\|&lt;b&gt; c (not in vocabulary) | 1 |\n", "| **total** | **1** |\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown has no %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Exclusion log") {
		t.Errorf("a list without an exclusion log got its section:\n%s", md)
	}
	var b strings.Builder
	if err := s.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if want := "table,row,column,count,keys\ntotals,entries,,1,\ncategory,\"'=a|<b>\nc\",,1,k1\n"; b.String() != want {
		t.Errorf("csv:\n got %q\nwant %q", b.String(), want)
	}
}

// TestDiffMarkdown: the pull-request comment counts what changed, says
// so when nothing did, and keeps keys inside their code spans.
func TestDiffMarkdown(t *testing.T) {
	d := Diff{Old: "a`|b", New: "new"}
	if got, want := d.Markdown(2, 2), "## Corpus diff\n\n`a'\\|b` → `new`: 2 → 2 entries; 0 added, 0 removed, 0 changed; 0 counts move.\n\nNo differences.\n"; got != want {
		t.Errorf("empty diff:\n got %q\nwant %q", got, want)
	}
	d.Added = []EntryRef{{Key: "k`1", Title: "A <b>title</b>"}}
	if got := d.Markdown(2, 3); !strings.Contains(got, "### Added (1)\n\n| key | title |\n| --- | --- |\n| `k'1` | A &lt;b&gt;title&lt;/b&gt; |\n") {
		t.Errorf("added:\n%s", got)
	}
}

// TestCrossTabs: --crosstab's pairs are read as ROWS,COLS and checked
// against the vocabulary: two controlled fields of papers.csv, or an
// error naming the pair.
func TestCrossTabs(t *testing.T) {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	var c CrossTabs
	for _, bad := range []string{"category", "a,b,c", ",b"} {
		if err := c.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := c.Set("category, verified"); err != nil || c.String() != "category,verified" || c.Check(v) != nil {
		t.Errorf("a good pair: %v, %q, %v", err, c.String(), c.Check(v))
	}
	c.Set("category,stage")
	if err := c.Check(v); err == nil || err.Error() != "category,stage: not two controlled fields of one file" {
		t.Errorf("a field of excluded.csv: %v", err)
	}
}

// TestSurveyPool: a count of the survey's records needs its pool, and
// says what the list lacks for one.
func TestSurveyPool(t *testing.T) {
	pool := &Pool{}
	if p, err := (&Data{Pool: pool}).SurveyPool(); p != pool || err != nil {
		t.Errorf("with a pool: %v, %v", p, err)
	}
	if _, err := (&Data{}).SurveyPool(); err == nil || !strings.Contains(err.Error(), "give --profile survey") {
		t.Errorf("a list of one's own: %v", err)
	}
	if _, err := (&Data{Profile: "survey"}).SurveyPool(); err == nil || !strings.Contains(err.Error(), "claims.yaml names no pool file") {
		t.Errorf("the survey's profile without a pool file: %v", err)
	}
}

// TestReportWrite: masrl stats's and masrl diff's --format values pick
// the rendering: indented JSON, CSV, or markdown, which is also the
// default.
func TestReportWrite(t *testing.T) {
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	s := Stats{Retained: 1}
	var csvOut strings.Builder
	if err := s.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	jsonOut, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{"json": string(jsonOut) + "\n", "csv": csvOut.String(), "markdown": s.Markdown(v)} {
		var b strings.Builder
		if err := s.Write(&b, format, v); err != nil || b.String() != want {
			t.Errorf("Stats.Write(%s) = %q, %v; want %q", format, b.String(), err, want)
		}
	}
	d := &Diff{Old: "old", New: "new"}
	djson, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{"json": string(djson) + "\n", "markdown": d.Markdown(2, 3)} {
		var b strings.Builder
		if err := d.Write(&b, format, 2, 3); err != nil || b.String() != want {
			t.Errorf("Diff.Write(%s) = %q, %v; want %q", format, b.String(), err, want)
		}
	}
}

// TestWriteUnread: a corpus that does not read is reported by its
// errors and "nothing counted"; any other error as one line.
func TestWriteUnread(t *testing.T) {
	bad := Diagnostic{Severity: Error, Pos: Pos{File: "papers.csv", Line: 2, Col: 3}, Message: "bare quote"}
	var b strings.Builder
	if !WriteUnread(&b, "masrl stats", &CheckError{Diagnostics: Diagnostics{bad}}) {
		t.Error("a *CheckError is not reported as unread")
	}
	if want := bad.String() + "\nmasrl stats: the corpus does not read (1 errors); nothing counted\n"; b.String() != want {
		t.Errorf("unread:\n got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	if WriteUnread(&b, "masrl diff", errors.New("no such file")) || b.String() != "masrl diff: no such file\n" {
		t.Errorf("other error: %q", b.String())
	}
}
