package site

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Files is a built site: the set of file names (slash-separated, inside the
// output directory) and their content. Load keeps the content in memory;
// Build streams every file into a fresh directory beside the output as soon
// as it is rendered and keeps only the names, so that its memory is bounded
// by the corpus rather than by the site, which is many times larger.
type Files struct {
	mu sync.Mutex
	// m maps a name to its content; in a streaming Files (dir != "") the
	// values are nil and the content lives in dir.
	m map[string][]byte
	// dir is where a streaming Files writes; "" keeps content in memory.
	dir string
	// made records the directories created under dir, so that a site of
	// 100,000 pages does not pay a MkdirAll per file.
	made map[string]bool
}

func newFiles() *Files { return &Files{m: map[string][]byte{}} }

// newDirFiles returns a Files that writes every file into dir at once.
func newDirFiles(dir string) *Files {
	// dir exists (stageDir made it): mkdir stops there.
	return &Files{m: map[string][]byte{}, dir: dir, made: map[string]bool{filepath.Clean(dir): true}}
}

// add records a file. Two pages claiming the same path (two values whose
// segments collide, a key equal to a reserved name) are a build error,
// never a silent overwrite.
func (fs *Files) add(name string, b []byte) error {
	if err := fs.claim(name); err != nil {
		return err
	}
	return fs.put(name, b)
}

// claim reserves a name whose content put supplies later (a queued page).
func (fs *Files) claim(name string) error {
	if err := checkOutputPath(name); err != nil {
		return err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if _, dup := fs.m[name]; dup {
		return fmt.Errorf("two outputs claim %s", name)
	}
	fs.m[name] = nil
	return nil
}

// put stores the content of a claimed name: in memory, or written to the
// streaming directory. It is safe for concurrent use; b is not retained by
// a streaming Files, so a caller may reuse its buffer.
func (fs *Files) put(name string, b []byte) error {
	if fs.dir == "" {
		fs.mu.Lock()
		fs.m[name] = b
		fs.mu.Unlock()
		return nil
	}
	p := filepath.Join(fs.dir, filepath.FromSlash(name))
	if err := fs.mkdir(filepath.Dir(p)); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// create opens a claimed name of a streaming Files for writing, so that a
// large page goes to the file as it is rendered instead of through a
// buffer of its size.
func (fs *Files) create(name string) (io.WriteCloser, error) {
	p := filepath.Join(fs.dir, filepath.FromSlash(name))
	if err := fs.mkdir(filepath.Dir(p)); err != nil {
		return nil, err
	}
	return createFile(p)
}

// mkdir creates d and its parents once per build. A directory whose parent
// this build made is created with one mkdir, without the stat of
// os.MkdirAll; a concurrent creation of the same directory is no error.
func (fs *Files) mkdir(d string) error {
	fs.mu.Lock()
	done := fs.made[d]
	fs.mu.Unlock()
	if done {
		return nil
	}
	if parent := filepath.Dir(d); parent != d {
		if err := fs.mkdir(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, iofs.ErrExist) {
		return err
	}
	fs.mu.Lock()
	fs.made[d] = true
	fs.mu.Unlock()
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

// Get returns a file's content and whether it exists. A site that Build
// wrote is read back from its directory.
func (fs *Files) Get(name string) ([]byte, bool) {
	b, ok := fs.m[name]
	if !ok || fs.dir == "" {
		return b, ok
	}
	b, err := os.ReadFile(filepath.Join(fs.dir, filepath.FromSlash(name)))
	return b, err == nil
}

// Len returns the number of files.
func (fs *Files) Len() int { return len(fs.m) }

// WriteDir replaces dir with the files held in memory, atomically as far as
// the file system allows (see stageDir and replaceDir). If writing fails,
// dir is left as it was.
func (fs *Files) WriteDir(dir string) (err error) {
	tmp, err := stageDir(dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	out := newDirFiles(tmp)
	for _, name := range fs.Names() {
		if err := out.add(name, fs.m[name]); err != nil {
			return err
		}
	}
	return replaceDir(tmp, dir)
}

// stageDir creates the fresh directory a new site is written into: beside
// dir, on the same file system, so that replaceDir can rename it.
func stageDir(dir string) (string, error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// replaceDir moves the staged directory tmp over dir: the old dir is
// renamed away, tmp renamed in, and the old one removed. If the second
// rename fails, the old site is put back; tmp is the caller's to remove.
func replaceDir(tmp, dir string) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
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
