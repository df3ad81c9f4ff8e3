package data

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"testing"
	"testing/fstest"
)

func TestOverlay(t *testing.T) {
	o := Overlay(fstest.MapFS{"a.html": {Data: []byte("top")}}, fstest.MapFS{"a.html": {Data: []byte("bottom")}, "b.html": {Data: []byte("b")}})
	a, _ := fs.ReadFile(o, "a.html")
	b, _ := fs.ReadFile(o, "b.html")
	if string(a) != "top" || string(b) != "b" {
		t.Errorf("overlay read %q, %q", a, b)
	}
	if _, err := fs.ReadFile(o, "c.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if names, _ := fs.Glob(o, "*.html"); !slices.Equal(names, []string{"a.html", "b.html"}) {
		t.Errorf("glob over both layers: %v", names)
	}
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	if Dir("") != FS {
		t.Error(`Dir("") is not the embedded data`)
	}
	if err := os.WriteFile(dir+"/vocab.yaml", []byte("fields: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := Dir(dir)
	v, _ := fs.ReadFile(d, "vocab.yaml")
	c, err := fs.ReadFile(d, "claims.yaml")
	if string(v) != "fields: []\n" || err != nil || len(c) == 0 {
		t.Errorf("Dir: vocab.yaml %q, claims.yaml %d bytes, %v: want the file of dir over the embedded rest", v, len(c), err)
	}
}
