// Package atomicfile replaces a file so that a reader sees either its old
// bytes or its new ones, never part of them: the new bytes go to a synced
// temporary file beside it, which is then renamed over it. The corpus's
// side files (corpus.WriteFiles) and trace serve's traces are written
// this way.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Stage writes data to a new temporary file in dir, beside dir/name,
// synced and with the mode of the file it will replace (0644 for a new
// one), and returns the temporary file's path: the caller renames it over
// dir/name, or removes it. On an error nothing is left behind.
func Stage(dir, name string, data []byte) (string, error) {
	target := filepath.Join(dir, name)
	mode := os.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(f.Name(), mode)); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", target, err)
	}
	return f.Name(), nil
}

// Write replaces dir/name with data: Stage, then the rename.
func Write(dir, name string, data []byte) error {
	tmp, err := Stage(dir, name, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", filepath.Join(dir, name), err)
	}
	return nil
}
