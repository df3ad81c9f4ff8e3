package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportDefaults: the export writes every default template and asset
// as built in, with an index naming what each asset serves, and refuses
// a directory that holds anything before writing into it.
func TestExportDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "theme")
	n, err := ExportDefaults(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = fs.WalkDir(Defaults(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		want, _ := fs.ReadFile(Defaults(), p)
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); err != nil || string(got) != string(want) {
			t.Errorf("%s: not exported as built in (%v)", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != files+1 {
		t.Errorf("%d files written, want %d and README.txt", n, files)
	}
	index, err := os.ReadFile(filepath.Join(dir, "README.txt"))
	if err != nil || !strings.Contains(string(index), "  assets/style.css: "+AssetAbout("assets/style.css")+"\n") {
		t.Errorf("README.txt: %v\n%s", err, index)
	}

	if _, err := ExportDefaults(dir); err == nil || !strings.Contains(err.Error(), dir+": not empty (") {
		t.Errorf("a second export into the same directory: %v", err)
	}
}
