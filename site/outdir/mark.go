package outdir

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MarkName is the file masrl writes at the top of every output directory
// it publishes, and of its build buffer from the moment it makes it. A
// build replaces only a directory that holds it (or an empty or missing
// one): a hand-written folder with an index.html, such as a GitHub Pages
// docs folder or a web root, has none and is refused, where an
// index.html alone was once taken for a site. The mark's last line tells
// one build's output from another's: the published site's checksum, or,
// while a build writes the buffer, a random token of that build. A cache
// of what the buffer holds (site.Cache, masrl serve) is good only while
// the buffer's mark is the one it expects, so another process's build
// into the same output, which rewrites the mark, is seen even when its
// two exchanges put the directories back where they were. The name is
// hidden and no page links it: it is in neither the sitemap nor any
// listing of pages, and a page cannot claim it (Files.Claim).
const MarkName = ".masrl-output"

// markHead begins every mark; a file that starts otherwise is not one.
const markHead = "masrl output directory\n"

// markText follows markHead: what the file is for, for a person who
// finds it.
const markText = "masrl build wrote this directory and replaces all of it on its next build:\n" +
	"keep nothing of your own here. A build refuses a non-empty directory without this file.\n"

// markTemp is where writeMark writes a mark before renaming it into
// place.
const markTemp = MarkName + ".new"

// markLimit bounds what is read of a file named MarkName: a mark is far
// shorter.
const markLimit = 4096

// publishedMark is the mark of a published site whose checksum is sum.
func publishedMark(sum string) string { return markHead + markText + "content " + sum + "\n" }

// pendingMark is the mark of a buffer a build is writing: a token no
// other build has, so that a cache sees the buffer was written.
func pendingMark() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return markHead + markText + "building " + hex.EncodeToString(b[:]) + "\n", nil
}

// readMark returns dir's mark, or "" when dir has none (no regular file
// of that name, or one that does not start as a mark does).
func readMark(dir string) (string, error) {
	p := filepath.Join(dir, MarkName)
	st, err := os.Lstat(p)
	if errors.Is(err, iofs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() || st.Size() > markLimit {
		return "", nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(string(b), markHead) {
		return "", nil
	}
	return string(b), nil
}

// writeMark writes dir's mark as a new file renamed into place: never
// through the inode of the one it replaces (which a hard-linked snapshot
// may share), and never half-written, so that a build killed at any
// moment leaves a mark the next build accepts.
func writeMark(dir, mark string) error {
	tmp := filepath.Join(dir, markTemp)
	f, err := createNew(tmp)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, mark); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, MarkName))
}

// createNew creates name as a new file, removing a file of that name
// first: whatever links another name to the old file keeps its bytes.
func createNew(name string) (*rawFile, error) {
	const flag = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	f, err := openRaw(name, flag, 0o644)
	if errors.Is(err, iofs.ErrExist) {
		if err := os.Remove(name); err != nil {
			return nil, err
		}
		f, err = openRaw(name, flag, 0o644)
	}
	return f, err
}

// fileSum is what the output's checksum knows of one file: its size and
// CRC-32C. It tells builds apart; it is no defence against someone who
// can write the output anyway.
type fileSum struct {
	size int64
	crc  uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sumFile reads a file and returns its fileSum.
func sumFile(name string) (fileSum, error) {
	f, err := os.Open(name)
	if err != nil {
		return fileSum{}, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, f)
	return fileSum{size: n, crc: h.Sum32()}, err
}

// Mark returns the mark an output holding these files carries: a
// function of the files' names and bytes only, so that a build in
// memory, a full build and an incremental one of the same site agree.
func (fs *Files) Mark() (string, error) {
	sum, err := fs.checksum()
	if err != nil {
		return "", err
	}
	return publishedMark(sum), nil
}

// checksum is the site's checksum: SHA-256 over every file's name, size
// and CRC-32C, in the order of names. A file whose sum is not known is
// read.
func (fs *Files) checksum() (string, error) {
	h := sha256.New()
	var line []byte
	for _, name := range fs.Names() {
		s, ok := fs.sums[name]
		if fs.dir == "" {
			s, ok = fileSum{size: int64(len(fs.m[name])), crc: crc32.Checksum(fs.m[name], castagnoli)}, true
		}
		if !ok {
			var err error
			if s, err = sumFile(filepath.Join(fs.dir, filepath.FromSlash(name))); err != nil {
				return "", err
			}
		}
		line = append(line[:0], name...)
		line = append(line, 0)
		line = strconv.AppendInt(line, s.size, 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, uint64(s.crc), 16)
		line = append(line, '\n')
		h.Write(line)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// checkMarked refuses to replace dir (the output, or what is the buffer
// when buffer is true) when it holds anything but has no mark: masrl did
// not write it, and replacing it would destroy someone's files. out is
// the output as the user named it.
func checkMarked(dir, out string, buffer bool) error {
	mark, err := readMark(dir)
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if mark != "" {
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	names, err := f.Readdirnames(4)
	f.Close()
	if err != nil && err != io.EOF {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	// A mark half-written by a build killed in its first moments is
	// masrl's own.
	names = slices.DeleteFunc(names, func(n string) bool { return n == markTemp })
	if len(names) == 0 {
		return nil
	}
	names = names[:min(3, len(names))]
	if buffer {
		return fmt.Errorf("refusing to build into %s: its build buffer %s holds files (%s) but no %s, the mark masrl leaves in what it writes; "+
			"a masrl older than the mark may have moved into it what %s held before its first build: look through it, keep what is yours, and remove it yourself",
			out, dir, strings.Join(names, ", "), MarkName, out)
	}
	also := ""
	if st, err := os.Lstat(BufferDir(out)); err == nil && st.IsDir() {
		also = fmt.Sprintf(" (and the build buffer %s beside it: an older masrl's first build may have moved into it what %s held, so look through it first)", BufferDir(out), out)
	}
	return fmt.Errorf("refusing to replace %s: it holds files (%s) but no %s, the mark masrl leaves in every output it builds, so this masrl did not build it "+
		"(a hand-written folder, a web root, or a site of a masrl older than the mark); "+
		"choose an empty or new directory for --out, or remove %s yourself%s if nothing in it is yours",
		out, strings.Join(names, ", "), MarkName, out, also)
}
