package outdir

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Files is a built site: the set of file names (slash-separated, inside the
// output directory) and their content. Memory keeps the content in memory;
// an Output streams every file into its build buffer (outdir.go) as soon
// as it is written and keeps only the names, so that a build's memory is
// bounded by its input rather than by the site, which is many times
// larger.
type Files struct {
	mu sync.Mutex
	// m maps a name to its content; in a streaming Files (dir != "") the
	// values are nil and the content lives in dir.
	m map[string][]byte
	// dir is where a streaming Files writes; "" keeps content in memory.
	dir string
	// made records the directories that exist under dir for this build,
	// so that a site of 100,000 pages does not pay a mkdir per file.
	made map[string]bool
	// old holds what dir held before the build (openBuffer): names, true
	// for a directory. Only read while the build writes.
	old map[string]bool
	// swept, when not nil, is closed once old is known and dir ready, or
	// sweepErr set; nothing is written before.
	swept    chan struct{}
	sweepErr error
	// sums are the size and CRC of every file the build wrote or kept,
	// for the output's checksum (mark.go); oldSums those of the files dir
	// held, when an earlier build's listing says (nil: read a kept file
	// to sum it).
	sums, oldSums map[string]fileSum
	// ahead is the goroutine of MakeDirs, if one runs; stopAhead ends it
	// early (stopMakingDirs).
	ahead     sync.WaitGroup
	stopAhead atomic.Bool
}

// MakeDirs makes the directories of names, files the build will write,
// in the order it will write them, ahead of Create, on one goroutine and
// with the ordinary, blocking mkdir. The names need not be claimed yet
// (site makes the entry pages' directories while it prepares the rest
// of the build), so each is checked here as Claim checks it: a name
// that is not a clean path inside the output makes nothing. An ext4
// mkdir that allocates an inode can wait for the disk, and holds the
// lock of its parent all the while; the render workers' raw calls
// (rawsys_linux.go) keep their processor through such a wait, so that
// one worker's wait for papers/ idled a CPU. Ahead of them, one
// goroutine makes the 10,000 directories of papers/ without contending
// for its lock, and lets go of its processor while it waits. (A raw
// mkdir here halves the build's system calls, the runtime's handoffs
// and its monitor's wake-ups, but keeps the processor through the
// disk's reads of ext4's bitmaps: less CPU, more wall time on a busy
// disk; bench/profile/build-10k-5.md.) An error is left for Create,
// which makes a directory it finds missing itself. A Files in memory
// makes nothing.
func (fs *Files) MakeDirs(names []string) {
	if fs.dir == "" || len(names) == 0 {
		return
	}
	fs.ahead.Go(func() {
		if fs.waitSwept() != nil {
			return
		}
		for _, name := range names {
			if fs.stopAhead.Load() {
				return
			}
			if CheckPath(name) != nil {
				continue // Claim refuses it, and says why
			}
			fs.mkdir(filepath.Dir(filepath.Join(fs.dir, filepath.FromSlash(name))), blockingMkdir)
		}
	})
}

// blockingMkdir is os.Mkdir, a system call the runtime may take the
// caller's processor from while it waits.
func blockingMkdir(d string) error { return os.Mkdir(d, 0o755) }

// stopMakingDirs ends MakeDirs' goroutine and waits for it: it must not
// make a directory after the build publishes or gives up its buffer.
func (fs *Files) stopMakingDirs() {
	fs.stopAhead.Store(true)
	fs.ahead.Wait()
}

// summed records a file's sum.
func (fs *Files) summed(name string, s fileSum) {
	fs.mu.Lock()
	fs.sums[name] = s
	fs.mu.Unlock()
}

// waitSwept waits until the streaming directory may be written.
func (fs *Files) waitSwept() error {
	if fs.swept == nil {
		return nil
	}
	<-fs.swept
	if fs.sweepErr != nil {
		return fmt.Errorf("writing %s: %w", fs.dir, fs.sweepErr)
	}
	return nil
}

// Memory returns a Files that keeps every file in memory.
func Memory() *Files { return &Files{m: map[string][]byte{}} }

// newDirFiles returns a Files that writes every file into dir at once;
// old is what dir holds already.
func newDirFiles(dir string, old map[string]bool) *Files {
	// dir exists (openBuffer made it): mkdir stops there.
	return &Files{m: map[string][]byte{}, dir: dir, made: map[string]bool{filepath.Clean(dir): true}, old: old, sums: map[string]fileSum{}}
}

// Add records a file. Two pages claiming the same path (two values whose
// segments collide, a key equal to a reserved name) are a build error,
// never a silent overwrite.
func (fs *Files) Add(name string, b []byte) error {
	if err := fs.Claim(name); err != nil {
		return err
	}
	return fs.Put(name, b)
}

// Claim reserves a name whose content Put supplies later (a queued page).
// A name that is not a clean relative path inside the output directory
// (CheckPath) is refused, and so is the name of the output's mark.
func (fs *Files) Claim(name string) error {
	if err := CheckPath(name); err != nil {
		return err
	}
	if name == MarkName {
		return fmt.Errorf("refusing output path %q: the name of masrl's mark of its output directories", name)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if _, dup := fs.m[name]; dup {
		return fmt.Errorf("two outputs claim %s", name)
	}
	fs.m[name] = nil
	return nil
}

// Put stores the content of a claimed name: in memory, or written to the
// streaming directory. It is safe for concurrent use; b is not retained by
// a streaming Files, so a caller may reuse its buffer.
func (fs *Files) Put(name string, b []byte) error {
	if fs.dir == "" {
		fs.mu.Lock()
		fs.m[name] = b
		fs.mu.Unlock()
		return nil
	}
	f, err := fs.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Create opens a claimed name of a streaming Files for writing, so that a
// large page goes to the file as it is rendered instead of through a
// buffer of its size. A file the buffer holds already is kept when its
// bytes are the same and otherwise replaced by a new file (outFile),
// never rewritten through its inode; a directory in its place is
// removed.
func (fs *Files) Create(name string) (io.WriteCloser, error) {
	if err := fs.waitSwept(); err != nil {
		return nil, err
	}
	p := filepath.Join(fs.dir, filepath.FromSlash(name))
	if err := fs.mkdir(filepath.Dir(p), mkdirOne); err != nil {
		return nil, err
	}
	isDir, exists := fs.old[name]
	if isDir {
		if err := os.RemoveAll(p); err != nil {
			return nil, err
		}
		exists = false
	}
	f, err := openOut(fs, name, p, exists)
	if errors.Is(err, iofs.ErrNotExist) {
		// A directory the buffer's listing named is gone (removed by
		// hand since the build that listed it).
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		f, err = openOut(fs, name, p, false)
	}
	return f, err
}

// Keep keeps a claimed name's file as the buffer holds it, without
// reading or writing it: an incremental build (site.Cache) knows the
// buffer's copy has the bytes the build would write. It reports false,
// and changes nothing, when the buffer holds no regular file of that
// name or Open had no listing of it; the caller then writes it. A Files
// in memory keeps nothing.
func (fs *Files) Keep(name string) (bool, error) {
	if fs.dir == "" {
		return false, nil
	}
	if err := fs.waitSwept(); err != nil {
		return false, err
	}
	if isDir, ok := fs.old[name]; !ok || isDir {
		return false, nil
	}
	// The output's checksum needs the file's sum, which the listing of
	// the build that wrote it holds; without it nothing vouches for the
	// file, and it is written again. A file is not checked against its
	// sum (a stat of each of 20,000 kept files was a sixth of a one-row
	// rebuild's CPU): a hand edit in the output is kept.
	s, ok := fs.oldSums[name]
	if !ok {
		return false, nil
	}
	fs.summed(name, s)
	// Its directories stay: removeStale keeps what the build made.
	fs.mu.Lock()
	for d := filepath.Dir(filepath.Join(fs.dir, filepath.FromSlash(name))); !fs.made[d]; d = filepath.Dir(d) {
		fs.made[d] = true
	}
	fs.mu.Unlock()
	return true, nil
}

// CheckPath refuses a file name that would leave the output directory or
// that is not in clean slash form: whatever the input, no key or value
// becomes a path outside the output.
func CheckPath(name string) error {
	if name == "" || path.IsAbs(name) || path.Clean(name) != name || name == "." ||
		strings.HasPrefix(name, "../") || name == ".." || strings.Contains(name, "\\") {
		return fmt.Errorf("refusing output path %q: not a clean path inside the output directory", name)
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("refusing output path %q", name)
		}
	}
	return nil
}

// mkdir creates d and its parents once per build, each with mkdirOne. A directory whose parent
// this build made is created with one mkdir, without the stat of
// os.MkdirAll, and one the buffer holds already (fs.old) with none: a
// rebuild made 10,000 mkdir calls that all failed. An existing or
// concurrently created directory is no error, and a file the buffer held
// in its place is removed first.
func (fs *Files) mkdir(d string, mkdirOne func(string) error) error {
	fs.mu.Lock()
	done := fs.made[d]
	fs.mu.Unlock()
	if done {
		return nil
	}
	if parent := filepath.Dir(d); parent != d {
		if err := fs.mkdir(parent, mkdirOne); err != nil {
			return err
		}
	}
	held := false
	if rel, err := filepath.Rel(fs.dir, d); err == nil {
		isDir, ok := fs.old[filepath.ToSlash(rel)]
		held = ok && isDir
		if ok && !isDir {
			if err := os.Remove(d); err != nil && !errors.Is(err, iofs.ErrNotExist) {
				return err
			}
		}
	}
	// A held directory is trusted like the rest of the listing; Create
	// makes it again should it be gone.
	if !held {
		if err := mkdirOne(d); err != nil && !errors.Is(err, iofs.ErrExist) {
			return err
		}
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

// Get returns a file's content and whether it exists. A site written to a
// directory is read back from it.
func (fs *Files) Get(name string) ([]byte, bool) {
	b, ok := fs.m[name]
	if !ok || fs.dir == "" {
		return b, ok
	}
	b, err := os.ReadFile(filepath.Join(fs.dir, filepath.FromSlash(name)))
	return b, err == nil
}

// Streaming reports whether the files go to a directory as they are
// written (Create streams them) rather than into memory.
func (fs *Files) Streaming() bool { return fs.dir != "" }

// Len returns the number of files.
func (fs *Files) Len() int { return len(fs.m) }
