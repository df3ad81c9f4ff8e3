package corpustest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind lays out a checkout beside a shared corpus in a temporary
// directory: Find takes the corpus beside the module root when
// MASRL_CORPUS is unset, the variable's directory when it is set, and
// fails naming the place it looked when that holds no corpus.
func TestFind(t *testing.T) {
	tmp := t.TempDir()
	pkg := filepath.Join(tmp, "checkout", "some", "pkg")
	shared := filepath.Join(tmp, "shared", "corpus")
	other := filepath.Join(tmp, "other")
	for _, d := range []string{pkg, shared, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(tmp, "checkout", "go.mod"), filepath.Join(shared, papersFile)} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(pkg)

	t.Setenv("MASRL_CORPUS", "")
	if dir, err := Find(); err != nil || dir != shared {
		t.Errorf("Find() without MASRL_CORPUS = %q, %v; want %s", dir, err, shared)
	}
	t.Setenv("MASRL_CORPUS", other)
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "MASRL_CORPUS") {
		t.Errorf("Find() with MASRL_CORPUS=%s (no corpus there) = %v, want an error naming the directory and MASRL_CORPUS", other, err)
	}
	if err := os.WriteFile(filepath.Join(other, papersFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir, err := Find(); err != nil || dir != other {
		t.Errorf("Find() with MASRL_CORPUS=%s = %q, %v", other, dir, err)
	}
	if err := os.Remove(filepath.Join(tmp, "checkout", "go.mod")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MASRL_CORPUS", "")
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Errorf("Find() outside a module = %v, want an error about go.mod", err)
	}
}
