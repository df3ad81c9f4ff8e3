package importer

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// TestInto prepares merges into a list made from table.md: more.md adds
// one entry and comes with the list's check started; table.md itself
// adds none, and comes without one; a list with the journal of an
// interrupted edit is refused. Nothing is written.
func TestInto(t *testing.T) {
	_, files := importFixture(t, "table.md")
	dir := filepath.Join(t.TempDir(), "list")
	if err := WriteNew(dir, files); err != nil {
		t.Fatal(err)
	}
	more, _ := importFixture(t, "more.md")
	m, standing, err := more.Into(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Added) != 1 || standing == nil || standing.Corpus.Dir != dir {
		t.Fatalf("more.md: %d added, standing %v; want one added and the list being checked", len(m.Added), standing)
	}
	if on, _ := os.ReadFile(filepath.Join(dir, corpus.PapersFile)); !bytes.Equal(on, files[corpus.PapersFile]) {
		t.Fatal("Into wrote papers.csv")
	}
	same, _ := importFixture(t, "table.md")
	if m, standing, err = same.Into(dir); err != nil || len(m.Added) != 0 || standing != nil {
		t.Fatalf("table.md again: %v, %d added, standing %v; want nothing to add and no check", err, len(m.Added), standing)
	}
	os.WriteFile(filepath.Join(dir, corpus.JournalFile), []byte("x"), 0o644)
	var interrupted *corpus.InterruptedError
	if _, _, err := more.Into(dir); !errors.As(err, &interrupted) || !strings.Contains(err.Error(), "masrl recover") {
		t.Fatalf("with a journal: %v, want an InterruptedError", err)
	}
}

// TestWriteListing lists a new list's files in name order, each after
// its "--- NAME" line.
func TestWriteListing(t *testing.T) {
	var b bytes.Buffer
	WriteListing(&b, map[string][]byte{"papers.csv": []byte("key\n"), "masrl.yaml": []byte("title: x\n")})
	if got, want := b.String(), "--- masrl.yaml\ntitle: x\n--- papers.csv\nkey\n"; got != want {
		t.Errorf("listing %q, want %q", got, want)
	}
}

// TestReadSources reads several sources into one result, and stops at a
// file that cannot be read with an *fs.PathError; NewList checks the
// files it returns and writes nothing.
func TestReadSources(t *testing.T) {
	r, err := ReadSources([]string{filepath.Join(fixtureDir, "table.md"), filepath.Join(fixtureDir, "refs.bib")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Formats) != 2 || len(r.Entries) == 0 {
		t.Errorf("formats %v, %d entries; want two sources read", r.Formats, len(r.Entries))
	}
	dir := filepath.Join(t.TempDir(), "list")
	files, err := r.NewList(dir)
	if err != nil || files[corpus.PapersFile] == nil {
		t.Fatalf("NewList: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NewList made %s: %v", dir, err)
	}
	var pe *fs.PathError
	if _, err := ReadSources([]string{filepath.Join(fixtureDir, "missing.md")}, Options{}); !errors.As(err, &pe) {
		t.Errorf("a missing source: %v, want an *fs.PathError", err)
	}
}
