package corpus

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckReport: the report of a checked corpus counts its entries,
// and its exclusions only where the list keeps an exclusion log; the
// text and github formats print one finding per line before the summary,
// and JSON carries the findings and no summary line.
func TestCheckReport(t *testing.T) {
	ck, err := Open("testdata/base", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep := ck.Report("base", false)
	if err := rep.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	if want := "base: 3 entries, 2 exclusions: 0 errors, 0 warnings\n"; b.String() != want {
		t.Errorf("text:\n got %q\nwant %q", b.String(), want)
	}

	rep = CheckReport{Corpus: "mine", Entries: 1, Errors: 1, Diagnostics: Diagnostics{{
		Severity: Error, Pos: Pos{File: "papers.csv", Line: 2, Col: 5}, Field: "year", Message: "not a year",
	}}}
	for format, want := range map[string]string{
		"text":   "papers.csv:2:5: error: year: not a year\nmine: 1 entry: 1 error, 0 warnings\n",
		"github": "::error file=papers.csv,line=2,col=5,title=year::year: not a year\nmine: 1 entry: 1 error, 0 warnings\n",
	} {
		b.Reset()
		rep.Write(&b, format)
		if b.String() != want {
			t.Errorf("%s:\n got %q\nwant %q", format, b.String(), want)
		}
	}
	b.Reset()
	rep.Write(&b, "json")
	var back CheckReport
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back.Errors != 1 || len(back.Diagnostics) != 1 || back.Diagnostics[0].Pos.Line != 2 {
		t.Errorf("json: %v\n%s", err, b.String())
	}
}

// TestWriteRefusal: a refusal lists the error findings, not the
// warnings, and counts them.
func TestWriteRefusal(t *testing.T) {
	ds := Diagnostics{
		{Severity: Error, Pos: Pos{File: "papers.csv", Line: 2, Col: 1}, Message: "bad"},
		{Severity: Warning, Pos: Pos{File: "papers.csv", Line: 3, Col: 1}, Message: "odd"},
	}
	var b strings.Builder
	ds.WriteRefusal(&b, "masrl build", "the previous site was left as it was")
	if want := "papers.csv:2:1: error: bad\nmasrl build: the corpus has 1 error; the previous site was left as it was\n"; b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
