package watch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

// TestFind ranks the recorded citation data: the work citing three
// entries (its preprint and published version merged) first, the one
// cited by two next; nothing with one connection, nothing excluded
// (2603.00011) or retained (beta, zeta's DOI).
func TestFind(t *testing.T) {
	s := intaketest.New(filepath.Join("..", "intake", "testdata"))
	defer s.Close()
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	cands, ds, err := Find(context.Background(), c, Options{Client: &intake.Client{S2API: s.S2API}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTriage(&b, cands); err != nil {
		t.Fatal(err)
	}
	want := `decision,connections,title,year,arxiv_id,doi,url,connected_keys
,3,Teams That Learn: Joint Credit for LLM Agents,2026,2605.00001,10.5555/p1,https://arxiv.org/abs/2605.00001,alpha beta delta
,2,The Complexity of Teams,1999,,10.5555/q1,https://doi.org/10.5555/q1,alpha delta
`
	if b.String() != want {
		t.Errorf("triage:\n%s\nwant:\n%s", b.String(), want)
	}
	// The entries Semantic Scholar does not know are warnings at their rows.
	var warned []string
	for _, d := range ds {
		warned = append(warned, d.Value)
	}
	if strings.Join(warned, " ") != "epsilon gamma zeta" {
		t.Errorf("warnings for %v, want epsilon gamma zeta", warned)
	}
	if s.Requests("s2") != 7+3 {
		t.Errorf("%d Semantic Scholar requests, want 10 (7 pages, 3 unknown entries)", s.Requests("s2"))
	}

	// --since drops the older one; --min 3 keeps only the first.
	cands, _, _ = Find(context.Background(), c, Options{Client: &intake.Client{S2API: s.S2API}, Since: "2000-01-01"})
	if len(cands) != 1 || cands[0].ArxivID != "2605.00001" {
		t.Errorf("since 2000: %+v", cands)
	}
	cands, _, _ = Find(context.Background(), c, Options{Client: &intake.Client{S2API: s.S2API}, Min: 3})
	if len(cands) != 1 || len(cands[0].Keys) != 3 {
		t.Errorf("min 3: %+v", cands)
	}
}

// TestExcludedNeverAgain: a rejected candidate, written to excluded.csv,
// is not proposed by the next search.
func TestExcludedNeverAgain(t *testing.T) {
	s := intaketest.New(filepath.Join("..", "intake", "testdata"))
	defer s.Close()
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	triage := `decision,connections,title,year,arxiv_id,doi,url,connected_keys
exclude abstract_screen: no RL component,2,The Complexity of Teams,1999,,10.5555/q1,https://doi.org/10.5555/q1,alpha delta
add,3,Teams That Learn,2026,2605.00001,10.5555/p1,https://arxiv.org/abs/2605.00001,alpha beta delta
`
	ds, err := ReadTriage("triage.csv", []byte(triage), v)
	if err != nil {
		t.Fatal(err)
	}
	rows := ExcludedRecords(c, ds, "2026-11-25")
	if len(rows) != 1 || strings.Join(rows[0], ",") != "E002,Semantic Scholar,citation watch,The Complexity of Teams,doi:10.5555/q1,https://doi.org/10.5555/q1,2026-11-25,abstract_screen,no RL component" {
		t.Fatalf("rows %q", rows)
	}
	var b bytes.Buffer
	b.WriteString(strings.Join(corpus.ExcludedColumns(), ",") + "\n")
	for _, x := range c.Excluded {
		var vals []string
		for _, col := range corpus.ExcludedColumns() {
			vals = append(vals, x.Value(col))
		}
		b.WriteString(strings.Join(vals, ",") + "\n")
	}
	b.WriteString(strings.Join(rows[0], ",") + "\n")
	dir := t.TempDir()
	if err := corpus.WriteFiles(dir, map[string][]byte{"excluded.csv": b.Bytes(), "papers.csv": mustRead(t, filepath.Join("testdata", "corpus", "papers.csv"))}); err != nil {
		t.Fatal(err)
	}
	c2, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cands, _, err := Find(context.Background(), c2, Options{Client: &intake.Client{S2API: s.S2API}})
	if err != nil || len(cands) != 1 || cands[0].ArxivID != "2605.00001" {
		t.Errorf("after excluding q1: %+v %v", cands, err)
	}
}

func TestReadTriageErrors(t *testing.T) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	triage := `decision,connections,title,year,arxiv_id,doi,url,connected_keys
maybe,2,A,1999,,10.5555/a,https://doi.org/10.5555/a,x y
exclude lunch_screen: tired,2,B,1999,,10.5555/b,https://doi.org/10.5555/b,x y
add,2,C,1999,,,,x y
,2,D,1999,,10.5555/d,https://doi.org/10.5555/d,x y
`
	_, err = ReadTriage("triage.csv", []byte(triage), v)
	for _, want := range []string{
		`triage.csv:2:1: decision "maybe": want add, or exclude STAGE: reason`,
		`triage.csv:3:1: stage "lunch_screen": want one of abstract_screen`,
		`triage.csv:4:1: the row has neither arxiv_id nor doi`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q: %v", want, err)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzReadTriage: any triage file is read or refused, never a panic, and
// every decision read has an id and, for an exclusion, a stage and reason.
func FuzzReadTriage(f *testing.F) {
	v, err := corpus.DefaultVocabulary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("decision,connections,title,year,arxiv_id,doi,url,connected_keys\nexclude abstract_screen: x,2,T,1999,,10.5555/q,u,a b\nadd,1,T,2026,2605.00001,,u,a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := ReadTriage("triage.csv", b, v)
		if err != nil {
			return
		}
		for _, d := range ds {
			if d.ID == "" || (!d.Add && (d.Stage == "" || d.Reason == "")) {
				t.Errorf("decision %+v", d)
			}
		}
	})
}

// TestTruncatedListWarns: a list of citations cut by the page cap while
// Semantic Scholar still offers a next page is a warning at the entry
// with the count read, not a silent stop.
func TestTruncatedListWarns(t *testing.T) {
	s := intaketest.New(filepath.Join("..", "intake", "testdata"))
	defer s.Close()
	c, err := corpus.Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	_, ds, err := Find(context.Background(), c, Options{Client: &intake.Client{S2API: s.S2API}, MaxPages: 1})
	if err != nil {
		t.Fatal(err)
	}
	var cut []string
	for _, d := range ds {
		if strings.Contains(d.Message, "the others are not searched") {
			cut = append(cut, d.String())
		}
	}
	want := "testdata/corpus/papers.csv:2:1: warning: key: Semantic Scholar counts 5 citing works of arXiv:2501.00001; 2 were read (--max-pages 1, 1000 a page; 10 reads all its API lists): the others are not searched"
	if len(cut) != 1 || cut[0] != want {
		t.Errorf("warnings %q, want [%q]", cut, want)
	}
	// With the default cap the whole list is read: no warning.
	_, ds, _ = Find(context.Background(), c, Options{Client: &intake.Client{S2API: s.S2API}})
	for _, d := range ds {
		if strings.Contains(d.Message, "the others are not searched") {
			t.Errorf("default cap: %s", d)
		}
	}
}
