package citation

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

// This file is masrl cite's workflow short of its flags and its output:
// which of the two files are stale, and writing them together with a
// release so that every failure leaves no file changed.

// Names are the files masrl cite writes, in the order it lists them.
var Names = []string{"CITATION.cff", ".zenodo.json"}

// Files returns CITATION.cff and .zenodo.json of in, by name.
func Files(in *Input) (map[string][]byte, error) {
	cff, err := CFF(in)
	if err != nil {
		return nil, err
	}
	zen, err := Zenodo(in)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{Names[0]: cff, Names[1]: zen}, nil
}

// Stale lists the paths of the files (Names) in dir that are missing or
// differ from files.
func Stale(dir string, files map[string][]byte) []string {
	var out []string
	for _, name := range Names {
		p := filepath.Join(dir, name)
		old, err := os.ReadFile(p)
		if err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// Write writes files into dir (corpus.WriteFiles) and then, when commit
// is not nil, calls it: masrl cite --snapshot puts its staged release in
// place there, after the citation that cites it. When commit fails the
// files get their old content back (or are removed, where there was
// none), and the error says whether that failed too.
func Write(dir string, files map[string][]byte, commit func() error) error {
	old := map[string][]byte{}
	for name := range files {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			old[name] = b
		}
	}
	if err := corpus.WriteFiles(dir, files); err != nil {
		return err
	}
	if commit == nil {
		return nil
	}
	if err := commit(); err != nil {
		if rerr := restore(dir, files, old); rerr != nil {
			return fmt.Errorf("%w; %w", err, rerr)
		}
		return fmt.Errorf("%w; no file was changed", err)
	}
	return nil
}

// restore puts back the files of dir that a failed write wrote: their
// old content, or no file where there was none.
func restore(dir string, written, old map[string][]byte) error {
	var errs []error
	back := map[string][]byte{}
	for name := range written {
		if b, ok := old[name]; ok {
			back[name] = b
		} else if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(back) > 0 {
		errs = append(errs, corpus.WriteFiles(dir, back))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("and putting back %s failed: %w", dir, err)
	}
	return nil
}
