package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/masrl/masrl/corpus"
)

// Check loads and checks a new list's files from memory, named as they
// would be in dir, so that nothing is written unless masrl check would
// pass it.
func Check(dir string, files map[string][]byte) error {
	m := fstest.MapFS{}
	for n, b := range files {
		m[n] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	v, err := corpus.ParseVocabulary(filepath.Join(dir, corpus.VocabFile), files[corpus.VocabFile])
	if err != nil {
		return err
	}
	c, err := corpus.LoadFS(m, dir, corpus.LoadOptions{})
	if err != nil {
		return err
	}
	return corpus.Check(c, v, corpus.CheckOptions{}).Err()
}

// ErrNotEmpty is the refusal to import into a directory that holds files.
var ErrNotEmpty = errors.New("is not empty: import writes a new list (use --into to merge into a list)")

// WriteNew writes a new list into dir, which must be missing or empty:
// all files or none. The files are written into a staging directory
// beside dir, which is then renamed into place.
func WriteNew(dir string, files map[string][]byte) error {
	ents, err := os.ReadDir(dir)
	exists := err == nil
	switch {
	case err == nil && len(ents) > 0:
		return fmt.Errorf("%s %w", dir, ErrNotEmpty)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".import-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage) // gone after the rename
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	if err := corpus.WriteFiles(stage, files); err != nil {
		return err
	}
	if exists {
		// An empty directory is replaced by the staged one.
		if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(stage, dir)
}
