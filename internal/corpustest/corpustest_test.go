package corpustest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindDefault finds the corpus beside the module root when
// MASRL_CORPUS is unset, and fails with the place it looked when the
// variable names a directory without a corpus.
func TestFindDefault(t *testing.T) {
	t.Setenv("MASRL_CORPUS", "")
	dir, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(root), "shared", "corpus"); dir != want {
		t.Errorf("Find() = %s, want %s", dir, want)
	}

	empty := t.TempDir()
	t.Setenv("MASRL_CORPUS", empty)
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "MASRL_CORPUS") {
		t.Errorf("Find() with an empty MASRL_CORPUS = %v, want an error naming %s and MASRL_CORPUS", err, empty)
	}
	if err := os.WriteFile(filepath.Join(empty, papersFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir, err := Find(); err != nil || dir != empty {
		t.Errorf("Find() with MASRL_CORPUS=%s = %s, %v", empty, dir, err)
	}
}
