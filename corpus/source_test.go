package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// TestSource: Open keeps the text of every corpus file it read, byte for
// byte, so that the site publishes it without reading the directory
// again; a file the corpus lacks, and a load that did not keep it
// (CheckOptions.NoSources), are fs.ErrNotExist; an intro.md that links
// out of the corpus is the error Source returns.
func TestSource(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.CopyFS(dir, os.DirFS(corpustest.Dir(t))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, IntroFile), []byte("Intro *text*.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ck, err := Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{PapersFile, ExcludedFile, BibFile, IntroFile} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ck.Corpus.Source(name); err != nil || got != string(want) {
			t.Errorf("Source(%s) = %d bytes, %v; want the file's %d bytes", name, len(got), err, len(want))
		}
	}
	ck, err = OpenWith(dir, nil, "", CheckOptions{NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{PapersFile, ExcludedFile} {
		if _, err := ck.Corpus.Source(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("NoSources: Source(%s) = %v, want fs.ErrNotExist", name, err)
		}
	}
	if err := os.Remove(filepath.Join(dir, IntroFile)); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Source(IntroFile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no intro.md: Source = %v, want fs.ErrNotExist", err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, IntroFile)); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	var escape *EscapeError
	if _, err := c.Source(IntroFile); !errors.As(err, &escape) {
		t.Errorf("intro.md linking out: Source = %v, want an *EscapeError", err)
	}
}
