package citation

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteRestores: when the release that follows the citation files
// cannot be put in place, the files get their old content back, and one
// that did not exist is removed: masrl cite --snapshot changes no file.
func TestWriteRestores(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Names[0]), []byte("old cff"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{Names[0]: []byte("new cff"), Names[1]: []byte("{}")}
	if got := Stale(dir, files); len(got) != 2 {
		t.Errorf("Stale: %q, want both files", got)
	}
	refused := errors.New("the release could not be put in place")
	err := Write(dir, files, func() error { return refused })
	if !errors.Is(err, refused) || !strings.HasSuffix(err.Error(), "; no file was changed") {
		t.Errorf("Write: %v, want the commit's error and no file changed", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, Names[0])); string(b) != "old cff" {
		t.Errorf("%s: %q, want its old content back", Names[0], b)
	}
	if _, err := os.Stat(filepath.Join(dir, Names[1])); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v, want it removed again", Names[1], err)
	}
	if err := Write(dir, files, nil); err != nil {
		t.Fatal(err)
	}
	if got := Stale(dir, files); len(got) != 0 {
		t.Errorf("Stale after Write: %q, want none", got)
	}
}
