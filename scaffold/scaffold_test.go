package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/awesome"
	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/awesomelint"
	"github.com/masrl/masrl/siteconfig"
)

func TestDefaultTitle(t *testing.T) {
	for name, want := range map[string]string{
		"rag-eval":          "Awesome Rag Eval",
		"awesome-rag-eval":  "Awesome Rag Eval",
		"Awesome_LLM_tools": "Awesome LLM Tools",
		"awesome":           "Awesome Papers",
		"écrits.2026":       "Awesome Écrits 2026",
	} {
		if got := DefaultTitle(name); got != want {
			t.Errorf("DefaultTitle(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestRefusesNonEmpty: nothing of the user's is overwritten, and the
// error names what is in the way.
func TestRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Create(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "not empty (notes.txt)") {
		t.Fatalf("Create into a non-empty directory: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "mine" {
		t.Fatalf("notes.txt changed: %q", b)
	}
	file := filepath.Join(dir, "notes.txt")
	if err := Create(file, Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Create onto a file: %v", err)
	}
}

// TestRefusesBadOptions: masrl.yaml is read back by siteconfig, so what
// it would refuse is refused before anything is written, with its reason.
func TestRefusesBadOptions(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "list")
	err := Create(dir, Options{Repository: "javascript:alert(1)"})
	if err == nil || !strings.Contains(err.Error(), "repository") {
		t.Fatalf("Create with a javascript: repository: %v", err)
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 0 {
		t.Fatalf("a refused init left %d entries in %s", len(ents), parent)
	}
}

// TestNewListIsAwesome: the standalone list of a new list (what masrl
// readme --standalone prints for it, with its masrl.yaml's words) passes
// awesome-lint, and so does the README masrl init writes, read as a
// list.
func TestNewListIsAwesome(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rag-eval")
	if err := Create(dir, Options{Description: "Papers on evaluating retrieval-augmented generation."}); err != nil {
		t.Fatal(err)
	}
	ck, err := corpus.Open(filepath.Join(dir, CorpusDir), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := ck.Err(); err != nil {
		t.Fatal(err)
	}
	cfg, err := siteconfig.Load(filepath.Join(dir, CorpusDir, siteconfig.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Title != "Awesome Rag Eval" || cfg.Profile != "" {
		t.Fatalf("masrl.yaml: title %q, profile %q", cfg.Title, cfg.Profile)
	}
	awesomelint.Check(t, awesome.Standalone(ck.Corpus, ck.Vocabulary, awesome.ListMeta(cfg.Title, cfg.Description), ck.Pool))
}
