package site

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Files is a built site held in memory: file name (slash-separated, inside
// the output directory) to content. Rendering fills it completely before
// anything touches the disk, so that a failure halfway leaves no trace.
type Files struct {
	m map[string][]byte
}

func newFiles() *Files { return &Files{m: map[string][]byte{}} }

// add records a file. Two pages claiming the same path (two values whose
// segments collide, a key equal to a reserved name) are a build error,
// never a silent overwrite.
func (fs *Files) add(name string, b []byte) error {
	if err := checkOutputPath(name); err != nil {
		return err
	}
	if _, dup := fs.m[name]; dup {
		return fmt.Errorf("two outputs claim %s", name)
	}
	fs.m[name] = b
	return nil
}

// Names returns the file names in sorted order.
func (fs *Files) Names() []string {
	names := make([]string, 0, len(fs.m))
	for n := range fs.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Get returns a file's content and whether it exists.
func (fs *Files) Get(name string) ([]byte, bool) {
	b, ok := fs.m[name]
	return b, ok
}

// Len returns the number of files.
func (fs *Files) Len() int { return len(fs.m) }

// WriteDir replaces dir with the files, atomically as far as the file system
// allows: everything is written into a fresh directory beside dir (same
// file system, so rename works), then the old dir is renamed away, the new
// one renamed in, and the old one removed. If writing fails, dir is left as
// it was.
func (fs *Files) WriteDir(dir string) (err error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	made := map[string]bool{}
	for _, name := range fs.Names() {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if d := filepath.Dir(p); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		if err := os.WriteFile(p, fs.m[name], 0o644); err != nil {
			return err
		}
	}
	old := ""
	if _, statErr := os.Lstat(dir); statErr == nil {
		oldDir, err := os.MkdirTemp(parent, "."+base+".old-")
		if err != nil {
			return err
		}
		// MkdirTemp only reserves a unique name; rename needs it gone.
		if err := os.Remove(oldDir); err != nil {
			return err
		}
		if err := os.Rename(dir, oldDir); err != nil {
			return fmt.Errorf("moving the previous site away: %w", err)
		}
		old = oldDir
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("moving the new site in: %w", err)
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
