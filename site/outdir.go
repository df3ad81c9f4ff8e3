package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A build writes into a buffer directory beside the output, a hidden
// sibling that holds the site of the build before the previous one, and
// then exchanges the two directories in one rename: the output is never
// half-written, a failed build leaves it as it was, and the previous
// output becomes the next build's buffer. The buffer's files are
// rewritten in place (opened with O_TRUNC, the same inode) and only the
// files the new build no longer produces are removed. Deleting the
// previous 10,000-file tree on every build, then allocating as many new
// inodes, was most of a rebuild's time on ext4 (BENCHMARKS.md says why).

// bufferDir is the buffer beside out. Its name is hidden, so that a server
// of out's parent does not list it, and names its owner.
func bufferDir(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".masrl-buffer")
}

// openBuffer makes the buffer of out ready to be written: created when
// missing, and otherwise swept: symbolic links and special files are
// removed, so that no write can follow them out of the buffer, and the
// regular files and directories found are returned (slash-separated
// names, true for a directory) for removeStale and for writes whose path
// changed kind.
func openBuffer(out string) (string, map[string]bool, error) {
	buf := bufferDir(out)
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
	old := map[string]bool{}
	err = filepath.WalkDir(buf, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == buf {
			return nil
		}
		rel, err := filepath.Rel(buf, p)
		if err != nil {
			return err
		}
		switch t := d.Type(); {
		case t.IsDir():
			old[filepath.ToSlash(rel)] = true
		case t.IsRegular():
			old[filepath.ToSlash(rel)] = false
		default:
			return os.Remove(p)
		}
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("sweeping the build buffer %s: %w", buf, err)
	}
	return buf, old, nil
}

// removeStale removes what the buffer held before the build and the
// build did not write: files of entries gone since, a stray file a user
// left in the output, and directories left empty by them. A name whose
// kind changed (a file where a directory was) was replaced while writing;
// what is there now is checked before anything is removed.
func (fs *Files) removeStale() error {
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
