package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ExportDefaults writes Defaults (the templates and assets every build
// falls back to) into dir, a new or empty directory, with an index,
// README.txt, saying what each asset serves (a template says it in its
// first comment), for masrl templates export. It never writes over a
// file: a directory that holds anything is refused before anything is
// written, and a file that appears meanwhile stops the export. It
// returns how many files it wrote, README.txt included.
func ExportDefaults(dir string) (int, error) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return 0, fmt.Errorf("%s: not empty (%s, ...); export into a new or empty directory, never over existing files", dir, ents[0].Name())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	defaults := Defaults()
	var index strings.Builder
	index.WriteString("The templates and assets masrl builds a site with, as exported by\n" +
		"masrl templates export. Build with --templates DIR (or templates: in\n" +
		"masrl.yaml): a file here replaces the built-in one of the same name, and\n" +
		"a file you delete is taken from masrl again. Each template says what it\n" +
		"renders in its first comment; the assets:\n\n")
	n := 0
	err := fs.WalkDir(defaults, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(defaults, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := writeNew(to, b); err != nil {
			return err
		}
		n++
		if path.Dir(p) == "assets" {
			fmt.Fprintf(&index, "  %s: %s\n", p, AssetAbout(p))
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	if err := writeNew(filepath.Join(dir, "README.txt"), []byte(index.String())); err != nil {
		return n, err
	}
	return n + 1, nil
}

// writeNew writes a file that must not exist yet (O_EXCL): an export
// never overwrites one.
func writeNew(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
