package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContentHash(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("papers.csv", "key\n")
	a, err := ContentHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("papers.bib", "")
	b, _ := ContentHash(dir)
	write("papers.bib", "x")
	c, _ := ContentHash(dir)
	if a == b || b == c || !strings.HasPrefix(a, "sha256:") || len(a) != 71 {
		t.Errorf("hashes %s %s %s: want three different sha256", a, b, c)
	}
	again, _ := ContentHash(dir)
	if again != c {
		t.Error("the hash is not stable")
	}
	if _, err := ContentHash(t.TempDir()); err == nil {
		t.Error("no papers.csv: no error")
	}
}
