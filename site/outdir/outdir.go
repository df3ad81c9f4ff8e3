// Package outdir holds a built site's files, in memory (Memory) or
// streamed into an output directory (Open) that a build replaces only
// when it succeeded: the buffer beside the output, its sweep, the
// exchange and the lock. It knows nothing of pages; package site renders
// into it. Every name it is given is checked to stay inside the output
// (CheckPath).
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// A build writes into a buffer directory beside the output, a hidden
// sibling that holds the site of the build before the previous one, and
// then exchanges the two directories in one rename: the output is never
// half-written, a failed build leaves it as it was, and the previous
// output becomes the next build's buffer. A file of the buffer whose
// bytes are the build's is left as it is; one that differs is replaced
// by a new file (outFile), never rewritten through its inode, which a
// hard-linked snapshot of the site may share; and only the files the
// new build no longer produces are removed. Deleting the previous
// 10,000-file tree on every build, then allocating as many new inodes,
// was most of a rebuild's time on ext4 (BENCHMARKS.md says why).
//
// Both directories carry masrl's mark (mark.go), and a build replaces
// only a directory that has it, or an empty or missing one.

// Output is an output directory being replaced by a build: locked against
// a concurrent build, its buffer swept in the background while the build
// prepares, written through Files and exchanged with the output by
// Publish. Close releases it; without Publish the output stays as it was.
type Output struct {
	out     string
	files   *Files
	unlock  func()
	listing *Listing // after Publish
	// found is the mark the buffer held when Open found it ("" none);
	// pending the one this build writes into it before anything else.
	found, pending string
}

// Listing is what a directory held when a build published it: its files
// and directories by slash-separated name (true for a directory), the
// files' sums, the directory's identity (device and inode), which the
// exchange carries with it from the output to the buffer, and its mark.
type Listing struct {
	names map[string]bool
	sums  map[string]fileSum
	dir   os.FileInfo
	mark  string
}

// Mark is the mark the directory had when the listing was made.
func (l *Listing) Mark() string { return l.mark }

// Open refuses an output directory whose replacement would destroy
// something that is not a site (checkOutDir; keep is a directory that must
// not be inside it, the corpus), locks it and starts sweeping its buffer.
//
// buffer, when not nil, is what the buffer holds, as an earlier build of
// this process published it (Output.Listing of the build before the
// last): when the directory at the buffer's path is still the one listed
// and still has the listed mark, Open takes the listing instead of
// reading every directory of the buffer again (the sweep was about a
// tenth of a one-row rebuild's CPU at 10,000 entries). A build of
// another process into the same output rewrites the buffer's mark (and
// exchanges the directories, possibly twice), which these checks see;
// a file written by anything else is not seen.
func Open(out, keep string, buffer *Listing) (*Output, error) {
	if err := checkOutPath(out, keep); err != nil {
		return nil, err
	}
	unlock, err := lockOutput(out)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", out, err)
	}
	o := &Output{out: out, files: newDirFiles(BufferDir(out), nil), unlock: unlock}
	// Under the lock: a build that holds it changes the buffer.
	err = checkOutDir(out)
	if st, serr := os.Lstat(o.files.dir); err == nil && serr == nil && st.IsDir() {
		o.found, err = readMark(o.files.dir)
	}
	if err == nil {
		o.pending, err = pendingMark()
	}
	if err != nil {
		unlock()
		return nil, err
	}
	files := o.files
	if buffer != nil && o.found != "" && o.found == buffer.mark {
		// The sums hold for the pages (a build that did not publish
		// wrote none, or its cache forgets the buffer's pages); the
		// names only when the buffer is the directory that was
		// published.
		files.oldSums = buffer.sums
		if st, err := os.Lstat(files.dir); err == nil && st.IsDir() && buffer.names != nil && buffer.dir != nil && os.SameFile(st, buffer.dir) {
			files.old = buffer.names
			if err := writeMark(files.dir, o.pending); err != nil {
				unlock()
				return nil, fmt.Errorf("writing %s: %w", out, err)
			}
			return o, nil
		}
	}
	// The buffer is swept while the build prepares; the first write waits
	// for it.
	files.swept = make(chan struct{})
	go func() {
		defer close(files.swept)
		_, files.old, files.sweepErr = openBuffer(out, o.pending)
	}()
	return o, nil
}

// Found is the mark the buffer held when Open found it, "" when it had
// none: a cache of what an earlier build left in the buffer is good only
// if this is the mark that build left (site.Cache).
func (o *Output) Found() string { return o.found }

// Unfinished is what a build that did not publish leaves of what it
// knew of the buffer, for the next Open: the mark it wrote there and the
// files' sums it had from its own listing. It has no names: the build
// may have written files the listing does not name, and the next build
// sweeps. Nil after Publish.
func (o *Output) Unfinished() *Listing {
	if o.listing != nil {
		return nil
	}
	return &Listing{sums: o.files.oldSums, mark: o.pending}
}

// Files is where the build writes: the buffer.
func (o *Output) Files() *Files { return o.files }

// Publish removes what the buffer held and the build did not write, and
// exchanges the buffer with the output; Files then reads the output.
func (o *Output) Publish() error {
	o.files.stopMakingDirs()
	if err := o.files.removeStale(); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	// After removeStale the buffer holds exactly the files the build
	// claimed and the directories it made or kept.
	names := make(map[string]bool, len(o.files.m)+len(o.files.made))
	for name := range o.files.m {
		names[name] = false
	}
	for d := range o.files.made {
		if rel, err := filepath.Rel(o.files.dir, d); err == nil && rel != "." {
			names[filepath.ToSlash(rel)] = true
		}
	}
	mark, err := o.files.Mark()
	if err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	if err := writeMark(o.files.dir, mark); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	if err := publish(o.files.dir, o.out); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	o.files.dir = filepath.Clean(o.out)
	o.listing = &Listing{names: names, sums: o.files.sums, mark: mark}
	if st, err := os.Lstat(o.out); err == nil {
		o.listing.dir = st
	}
	return nil
}

// Mark is the mark of the published output, "" before Publish.
func (o *Output) Mark() string {
	if o.listing == nil {
		return ""
	}
	return o.listing.mark
}

// Listing is what the output holds after Publish, for the Open of the
// build after next (whose buffer this output will then be); nil before
// Publish.
func (o *Output) Listing() *Listing {
	if o.listing == nil || o.listing.dir == nil {
		return nil
	}
	return o.listing
}

// Close waits for the sweep, so that it never outlives the lock, and
// releases the lock.
func (o *Output) Close() {
	if o.files.swept != nil {
		<-o.files.swept
	}
	o.files.stopMakingDirs()
	o.unlock()
}

// checkOutPath refuses an output whose replacement would destroy
// the corpus or a folder above it, the current directory or a file
// system root; checkOutDir then looks at what is there. Build removes
// what it replaces, so a mistyped --out must fail before anything moves.
func checkOutPath(out, corpusDir string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if filepath.Dir(abs) == abs {
		return fmt.Errorf("refusing to replace %s: a file system root", out)
	}
	if wd, err := os.Getwd(); err == nil && within(wd, abs) {
		return fmt.Errorf("refusing to replace %s: it holds the current directory", out)
	}
	if corpusDir != "" {
		if c, err := filepath.Abs(corpusDir); err == nil && within(c, abs) {
			return fmt.Errorf("refusing to replace %s: it holds the corpus %s", out, corpusDir)
		}
	}
	return nil
}

// checkOutDir refuses an output that is not a site masrl built: a
// symbolic link, a file, or a non-empty directory without masrl's mark
// (mark.go); and a build beside a build buffer without it. Call it
// under the output's lock, as a build that holds it rewrites the mark.
//
// A symbolic link is refused rather than written through: the build
// replaces its output by renaming the directory, which would replace
// the link itself, and writing through it would put the buffer and the
// lock beside a target the user never named (and hide that --out is the
// corpus or the current directory). The message names the target to
// build into instead.
func checkOutDir(out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	st, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("writing %s: %w", out, err)
	case st.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(abs)
		if err != nil {
			link, _ := os.Readlink(abs)
			return fmt.Errorf("refusing to replace %s: it is a symbolic link to %s, which cannot be followed (%v); give --out the directory to build into", out, link, err)
		}
		return fmt.Errorf("refusing to replace %s: it is a symbolic link (to %s), and a build replaces its output by renaming it, which would replace the link; "+
			"to build into the directory it points to, give --out %s", out, target, target)
	case !st.IsDir():
		return fmt.Errorf("refusing to replace %s: it is a file, not a directory; choose an empty or new directory for --out", out)
	default:
		if err := checkMarked(abs, out, false); err != nil {
			return err
		}
	}
	return checkBuffer(out)
}

// checkBuffer refuses a build buffer that holds files without masrl's
// mark (checkMarked). Something else in the buffer's place (a link, a
// file) is masrl's to remove: the name is its own.
func checkBuffer(out string) error {
	buf := BufferDir(out)
	if st, err := os.Lstat(buf); err != nil || !st.IsDir() {
		return nil
	}
	return checkMarked(buf, out, true)
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "..")
}

// BufferDir is the buffer beside out. Its name is hidden, so that a server
// of out's parent does not list it, and names its owner.
func BufferDir(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".masrl-buffer")
}

// openBuffer makes the buffer of out ready to be written: created when
// missing, and otherwise swept (sweep); then marked with mark, before
// anything else is written, so that a build killed at any moment leaves
// a buffer the next build accepts.
func openBuffer(out, mark string) (string, map[string]bool, error) {
	buf, old, err := prepareBuffer(out)
	if err == nil {
		err = writeMark(buf, mark)
	}
	return buf, old, err
}

// prepareBuffer creates or sweeps the buffer of out.
func prepareBuffer(out string) (string, map[string]bool, error) {
	buf := BufferDir(out)
	if err := os.MkdirAll(filepath.Dir(buf), 0o755); err != nil {
		return "", nil, err
	}
	st, err := os.Lstat(buf)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(buf, 0o755); err != nil {
			return "", nil, err
		}
		return buf, map[string]bool{}, nil
	case err != nil:
		return "", nil, err
	case !st.IsDir():
		// Not ours to keep: a link or a file in the buffer's place.
		if err := os.Remove(buf); err != nil {
			return "", nil, err
		}
		if err := os.Mkdir(buf, 0o755); err != nil {
			return "", nil, err
		}
		return buf, map[string]bool{}, nil
	}
	old, err := sweep(buf)
	if err != nil {
		return "", nil, fmt.Errorf("sweeping the build buffer %s: %w", buf, err)
	}
	return buf, old, nil
}

// sweep lists what the directory root holds and removes symbolic links
// and special files, so that no write can follow them out of it. It
// returns the regular files and directories found, by slash-separated
// name, true for a directory, but the mark at its top. The directories are read concurrently: a
// site has one per entry, and reading them one after another was a tenth
// of a rebuild.
func sweep(root string) (map[string]bool, error) {
	var (
		mu    sync.Mutex
		old   = map[string]bool{}
		errs  []error
		wg    sync.WaitGroup
		slots = make(chan struct{}, 4*max(1, runtime.GOMAXPROCS(0)))
	)
	var visit func(rel string)
	visit = func(rel string) {
		defer wg.Done()
		slots <- struct{}{}
		dir := filepath.Join(root, filepath.FromSlash(rel))
		// os.ReadDir, unlike os.Open and File.ReadDir, opens the
		// directory without offering it to the runtime's poller: four
		// fcntl calls and a failing epoll_ctl fewer for each of 10,000
		// directories.
		entries, err := os.ReadDir(dir)
		<-slots
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
			return
		}
		for _, e := range entries {
			name := e.Name()
			if rel == "" && name == MarkName {
				continue // the buffer's mark: Open and Publish write it
			}
			if rel != "" {
				name = rel + "/" + name
			}
			t := e.Type()
			switch {
			case t.IsDir():
				wg.Add(1)
				go visit(name)
			case t.IsRegular():
			default:
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
				continue
			}
			mu.Lock()
			old[name] = t.IsDir()
			mu.Unlock()
		}
	}
	wg.Add(1)
	visit("")
	wg.Wait()
	return old, errors.Join(errs...)
}

// removeStale removes what the buffer held before the build and the
// build did not write: files of entries gone since, a stray file a user
// left in the output, and directories left empty by them. A name whose
// kind changed (a file where a directory was) was replaced while writing;
// what is there now is checked before anything is removed.
func (fs *Files) removeStale() error {
	if err := fs.waitSwept(); err != nil {
		return err
	}
	var dirs []string
	for name, isDir := range fs.old {
		p := filepath.Join(fs.dir, filepath.FromSlash(name))
		if _, ok := fs.m[name]; ok || fs.made[p] {
			continue
		}
		if isDir {
			dirs = append(dirs, name)
			continue
		}
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	// Deepest first, so that a directory is empty when it is removed.
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, name := range dirs {
		p := filepath.Join(fs.dir, filepath.FromSlash(name))
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// publish exchanges the written buffer with out: out then holds the new
// site and the buffer the previous one. Without out, the buffer is simply
// renamed.
func publish(buf, out string) error {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(buf, out)
	}
	return exchange(buf, out)
}

// renameExchange swaps a and b with three renames, for systems without an
// atomic exchange: for a moment out is missing, and a failure puts back
// what it moved.
func renameExchange(a, b string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(b), "."+filepath.Base(b)+".swap-")
	if err != nil {
		return err
	}
	if err := os.Remove(tmp); err != nil { // MkdirTemp only reserves the name
		return err
	}
	if err := os.Rename(b, tmp); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(tmp, b)
		return err
	}
	return os.Rename(tmp, a)
}
