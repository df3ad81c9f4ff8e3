package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/internal/awesomelint"
	"github.com/masrl/masrl/site/awesome"
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

// TestKeepsTheDirectory: an existing empty directory is written into, not
// replaced: the same inode and mode after, and a symbolic link to one
// stays a link whose target holds the list.
func TestKeepsTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "list")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Create(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("Create replaced the directory (another inode)")
	}
	if after.Mode().Perm() != 0o750 {
		t.Errorf("mode %v after Create, want 0750 as before", after.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(dir, CorpusDir, corpus.PapersFile)); err != nil {
		t.Error(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".masrl-init") {
			t.Errorf("the staging directory %s is left", e.Name())
		}
	}

	target := filepath.Join(t.TempDir(), "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Create(link, Options{}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link %s is no longer a link: %v", link, err)
	}
	if _, err := os.Stat(filepath.Join(target, CorpusDir, corpus.PapersFile)); err != nil {
		t.Errorf("the link's target holds no list: %v", err)
	}
}

// TestRefusesEmptyNameAndDanglingLink: "" is not the current directory,
// and a link to nothing is neither replaced nor followed.
func TestRefusesEmptyNameAndDanglingLink(t *testing.T) {
	if err := Create("", Options{}); err == nil || !strings.Contains(err.Error(), "name a new or empty directory") {
		t.Fatalf(`Create(""): %v`, err)
	}
	parent := t.TempDir()
	link := filepath.Join(parent, "link")
	if err := os.Symlink(filepath.Join(parent, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	err := Create(link, Options{})
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link to "+filepath.Join(parent, "nowhere")+", which does not exist") {
		t.Fatalf("Create through a dangling link: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the dangling link was replaced: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(parent, "nowhere")); err == nil {
		t.Fatal("the link's target was made")
	}
}

// TestWriteNext: masrl init names the new list's vocabulary and example
// row under its corpus directory and the commands to run in it.
func TestWriteNext(t *testing.T) {
	var b strings.Builder
	WriteNext(&b, "mylist")
	want := "made a new list in mylist. Next:\n" +
		"  edit " + filepath.Join("mylist", CorpusDir, "vocab.yaml") + " (your controlled fields) and " + filepath.Join("mylist", CorpusDir, "papers.csv") + " (the example row)\n" +
		"  cd mylist && masrl check && masrl build --out public && masrl readme README.md\n"
	if b.String() != want {
		t.Errorf("WriteNext:\n%s\nwant:\n%s", b.String(), want)
	}
}
