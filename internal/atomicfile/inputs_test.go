package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputsRefuseOverwrite: an output that is an input, by another
// spelling, a hard link or a symbolic link, is refused and the input left
// as it was; any other output is written whole.
func TestInputsRefuseOverwrite(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "run.json")
	if err := os.WriteFile(src, []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(src, filepath.Join(dir, "hard.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run.json", filepath.Join(dir, "link.html")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in Inputs
	in.Add("run.json", f)
	in.Add("<stdin>", strings.NewReader("not a file"))
	for _, out := range []string{src, filepath.Join(dir, ".", "run.json"), filepath.Join(dir, "hard.html"), filepath.Join(dir, "link.html")} {
		err := in.Write(out, []byte("page"))
		if err == nil || !strings.Contains(err.Error(), "is the input run.json: writing it would destroy the input") {
			t.Errorf("%s: %v, want a refusal", out, err)
		}
	}
	if b, _ := os.ReadFile(src); string(b) != "input" {
		t.Fatalf("the input was overwritten: %q", b)
	}
	out := filepath.Join(dir, "run.html")
	if err := in.Write(out, []byte("page")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "page" {
		t.Errorf("wrote %q", b)
	}
}
