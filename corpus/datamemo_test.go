package corpus_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestReopenKeepsUnchangedData holds Reopen to keeping the data of the
// open before (the same *Data, which the site's first pages of an edit
// rely on) while its files are unchanged, papers.csv edited or not, and
// to reading it again when one of them changes: the list's own
// vocab.yaml appearing or changing, or a file of the data directory.
func TestReopenKeepsUnchangedData(t *testing.T) {
	dir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	dataDir := t.TempDir()
	dfs := data.Dir(dataDir)
	reopen := func(prev *corpus.Checked) *corpus.Checked {
		t.Helper()
		ck, err := corpus.Reopen(prev, dir, dfs, data.SurveyProfile, corpus.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ck
	}
	ck := reopen(nil)
	same := func(step string, want bool) {
		t.Helper()
		next := reopen(ck)
		if got := next.Data == ck.Data; got != want {
			t.Fatalf("%s: the data kept: %v, want %v", step, got, want)
		}
		ck = next
	}
	same("nothing changed", true)
	papers := filepath.Join(dir, corpus.PapersFile)
	b, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(papers, append(b, b[strings.LastIndex(string(b[:len(b)-1]), "\n")+1:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	same("papers.csv edited", true)
	vocab, err := os.ReadFile(filepath.Join("..", "data", "vocab.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, corpus.VocabFile), vocab)
	same("the list's own vocab.yaml added", false)
	same("nothing changed after", true)
	relabelled := strings.Replace(string(vocab), "label: Category", "label: Kind", 1)
	write(filepath.Join(dir, corpus.VocabFile), []byte(relabelled))
	same("vocab.yaml's label changed", false)
	if got := ck.Vocabulary.Field("category").Label; got != "Kind" {
		t.Fatalf("the category's label after the change: %q, want Kind", got)
	}
	pool := mustRead(t, filepath.Join("..", "data", "survey-pool.yaml"))
	write(filepath.Join(dataDir, "survey-pool.yaml"), pool)
	same("a file laid over the data directory, the same bytes", true)
	write(filepath.Join(dataDir, "survey-pool.yaml"), append(pool, "\n# laid over\n"...))
	same("a file laid over the data directory, other bytes", false)
	same("nothing changed at last", true)
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
