package site

import (
	"io/fs"
	"strings"
	"testing"
)

// TestDefaultsSayWhatTheyRender: every file masrl templates export
// writes says what it renders, a template in its first comment and an
// asset in assetAbout, so that the export's index never lags the files.
func TestDefaultsSayWhatTheyRender(t *testing.T) {
	d := Defaults()
	n := 0
	err := fs.WalkDir(d, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		n++
		if strings.HasPrefix(p, "assets/") {
			if AssetAbout(p) == "" {
				t.Errorf("%s: no description in assetAbout", p)
			}
			return nil
		}
		b, err := fs.ReadFile(d, p)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(strings.TrimPrefix(string(b), "{{- "), "{{/* ") && !strings.HasPrefix(string(b), "{{- /*") {
			t.Errorf("%s: does not open with a comment saying what it renders", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range assetAbout {
		if _, err := fs.Stat(d, name); err != nil {
			t.Errorf("assetAbout names %s, which masrl does not ship", name)
		}
	}
	if n < len(pageNames)+2 {
		t.Errorf("only %d files", n)
	}
}
