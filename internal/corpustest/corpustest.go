// Package corpustest finds the survey's real corpus for the tests that
// read it, the same way in every package: the directory MASRL_CORPUS
// names (make test sets it), else ../shared/corpus beside the module root,
// where a checkout of the project sits next to its shared inputs.
//
// A test that needs the corpus and cannot find it fails: it never skips,
// so go test ./... and make test run the same tests. Tests that do not
// need the real corpus (synthetic cases, fixtures under testdata/) must
// not call it.
//
// It does not import package corpus, so that corpus' own tests can use it.
package corpustest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// papersFile is the file that marks a corpus directory (corpus.PapersFile).
const papersFile = "papers.csv"

// Dir returns the real corpus' directory, absolute, or fails the test
// saying where it looked and how to point at the corpus.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Find returns the real corpus' directory, absolute, or an error saying
// where it looked; for benchmarks and commands that report rather than
// fail.
func Find() (string, error) {
	dir := os.Getenv("MASRL_CORPUS")
	from := "MASRL_CORPUS"
	if dir == "" {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "..", "shared", "corpus")
		from = "the default beside the module root"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, papersFile)); err != nil {
		return "", fmt.Errorf("real corpus not found at %s (%s): %v; set MASRL_CORPUS to the corpus directory, or put it at ../shared/corpus beside the checkout", abs, from, err)
	}
	return abs, nil
}

// ModuleRoot is the nearest directory at or above the working directory
// (a test's package directory) that holds go.mod: where the real corpus
// and node_modules are found from.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory: the real corpus is found relative to the module root")
		}
		dir = parent
	}
}

// List returns the directory of the example list NAME under the module's
// testdata/lists (testdata/lists/NAME/corpus), absolute: the fixtures of
// multi-valued fields, link columns and a list's own vocabulary that
// several packages' tests read.
func List(t testing.TB, name string) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "testdata", "lists", name, "corpus")
	if _, err := os.Stat(filepath.Join(dir, papersFile)); err != nil {
		t.Fatalf("example list %s: %v", name, err)
	}
	return dir
}

// CopyList returns a copy of the example list NAME (List) in a temporary
// directory, for a test that edits it.
func CopyList(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(List(t, name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ReadTree reads every file under dir: its path relative to dir, with
// slashes, and its content. A built site, an output directory or a list
// written by a command are compared this way.
func ReadTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// WriteTree writes files (a slash path relative to dir: content) under
// dir, making the folders they need.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CopyCorpus copies a corpus's data files (papers.csv, excluded.csv,
// papers.bib and spotcheck.csv, where src has them) into a fresh
// directory, for a test that edits them; the vocabulary and claims come
// from the profile, so the copy checks as src does.
func CopyCorpus(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{papersFile, "excluded.csv", "papers.bib", "spotcheck.csv"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// WriteLater writes a file and moves its modification time forward, so
// that a watcher comparing times (masrl serve's) sees an edit made within
// the file system's timestamp resolution.
func WriteLater(t testing.TB, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Duration(len(b)%7+1) * time.Second)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
}

// LogBuffer is a log that a server's goroutines write and a test reads.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// ReadCSV reads every record of a CSV file, such as papers.csv, for a
// test that edits rows.
func ReadCSV(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
