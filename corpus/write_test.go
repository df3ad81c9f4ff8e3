package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("old a"), 0o600)
	if err := WriteFiles(dir, map[string][]byte{"a.csv": []byte("new a"), "b.bib": []byte("new b")}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.csv": "new a", "b.bib": "new b"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "a.csv")); st.Mode().Perm() != 0o600 {
		t.Errorf("a.csv mode %v, want the old 0600", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files in the directory, want 2 (no temporary file left)", len(ents))
	}
}

// TestWriteFilesBothOrNeither: when one target cannot be replaced (here a
// directory stands where a file should be), the other keeps its old
// content.
func TestWriteFilesBothOrNeither(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("rename over a directory behaves differently")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("old a"), 0o644)
	os.Mkdir(filepath.Join(dir, "z.bib"), 0o755)
	os.WriteFile(filepath.Join(dir, "z.bib", "keep"), nil, 0o644)
	err := WriteFiles(dir, map[string][]byte{"a.csv": []byte("new a"), "z.bib": []byte("new z")})
	if err == nil {
		t.Fatal("no error replacing a non-empty directory")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.csv")); string(b) != "old a" {
		t.Errorf("a.csv = %q after the failure, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d entries in the directory, want 2 (no temporary file left)", len(ents))
	}
}
