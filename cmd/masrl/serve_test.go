package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"

	"github.com/masrl/masrl/internal/corpustest"
)

// copyCorpus copies the top-level files of a corpus into a fresh directory
// the test may change.
func copyCorpus(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile, corpus.SpotcheckFile} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestReadmeCheckRealCorpus checks the committed README against the real
// corpus, and that any change to the corpus makes --check fail.
func TestReadmeCheckRealCorpus(t *testing.T) {
	dir := corpustest.Dir(t)
	readme := filepath.Join("..", "..", "README.md")
	if _, errs, code := runCmd(t, "readme", readme, "--check", "--corpus", dir, "--profile", "survey"); code != exitOK {
		t.Fatalf("committed README is stale (%d): %s", code, errs)
	}
	changed := copyCorpus(t, dir)
	papers := filepath.Join(changed, corpus.PapersFile)
	b, _ := os.ReadFile(papers)
	b = bytes.Replace(b, []byte("First systematic LaMAS RFT paradigm"), []byte("First systematic LaMAS RFT paradigm (edited)"), 1)
	os.WriteFile(papers, b, 0o644)
	_, errs, code := runCmd(t, "readme", readme, "--check", "--corpus", changed, "--profile", "survey")
	if code != exitFindings || !strings.Contains(errs, "out of date") {
		t.Errorf("after a corpus change: exit %d, %s", code, errs)
	}
}
