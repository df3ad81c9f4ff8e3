package linkcheck

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"net/http/httptest"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/upkeep/intake"
	"github.com/masrl/masrl/upkeep/intake/intaketest"
)

// TestCheckCorpus: the report of a whole corpus counts the findings of
// TestCheck's fixture by severity and names the corpus; a corpus without
// a link reports an empty list of findings, [] in JSON, not null.
func TestCheckCorpus(t *testing.T) {
	var host site
	srv := httptest.NewServer(&host)
	defer srv.Close()
	rec := intaketest.New(filepath.Join("..", "intake", "testdata"))
	defer rec.Close()
	checker := &Checker{
		HTTP:    NewHTTPClient(5*time.Second, &intake.AddressPolicy{Local: []string{strings.TrimPrefix(srv.URL, "http://")}}),
		Service: &intake.Client{ArxivAPI: rec.ArxivAPI, CrossrefAPI: rec.CrossrefAPI},
	}
	dir := fixture(t, srv.URL)
	ck, err := corpus.Open(dir, data.Dir(""), "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := checker.CheckCorpus(context.Background(), ck)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Corpus != dir || rep.URLs != 10 || rep.Errors != 3 || rep.Warnings != 3 || len(rep.Diagnostics) != 6 {
		t.Errorf("report %s: %d URLs, %d errors, %d warnings, %d findings; want %s, 10, 3, 3, 6", rep.Corpus, rep.URLs, rep.Errors, rep.Warnings, len(rep.Diagnostics), dir)
	}
	empty := t.TempDir()
	if err := corpus.WriteFiles(empty, map[string][]byte{corpus.PapersFile: []byte("key,title\n")}); err != nil {
		t.Fatal(err)
	}
	if ck, err = corpus.Open(empty, nil, ""); err != nil {
		t.Fatal(err)
	}
	if rep, err = checker.CheckCorpus(context.Background(), ck); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(rep); !strings.Contains(string(b), `"diagnostics":[]`) {
		t.Errorf("a corpus without links: %s, want diagnostics []", b)
	}
}

// TestReportWrite: masrl links's formats: one finding per line as text
// or as a workflow command, the whole report as JSON, and the summary.
func TestReportWrite(t *testing.T) {
	d := corpus.Diagnostic{Severity: corpus.Error, Pos: corpus.Pos{File: "papers.csv", Line: 2, Col: 5}, Field: "url", Message: "404 Not Found"}
	rep := &Report{Corpus: "corpus", URLs: 1, Errors: 1, Diagnostics: corpus.Diagnostics{d}}
	j, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{"text": d.String() + "\n", "github": d.Annotation().String() + "\n", "json": string(j) + "\n"} {
		var b strings.Builder
		if err := rep.Write(&b, format); err != nil || b.String() != want {
			t.Errorf("Write(%s) = %q, %v; want %q", format, b.String(), err, want)
		}
	}
	if got, want := rep.Summary(), "corpus: 1 link checked: 1 error, 0 warnings"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// TestTerminalProgress: no progress line goes to a pipe, a file or a
// buffer: only a terminal gets one.
func TestTerminalProgress(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if TerminalProgress(f, "masrl links") != nil || TerminalProgress(&strings.Builder{}, "masrl links") != nil {
		t.Error("a progress line for a file or a buffer")
	}
}
