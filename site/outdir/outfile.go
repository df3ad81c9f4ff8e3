package outdir

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	iofs "io/fs"
	"os"
)

// outFile writes a file of the build buffer without rewriting what it
// holds already, and never through the inode of the file it replaces:
// while the bytes written equal the old file's, it only reads and
// compares them; from the first difference on it writes a new file in
// the old one's place (the equal part copied first). A rebuild of an
// unchanged corpus therefore reads its pages from the page cache and
// writes nothing, unchanged files keep their modification times (which
// spares a deployment by rsync), and a snapshot that shares the
// output's files by hard links (cp -al, rsync --link-dest) keeps its
// bytes: the buffer is the output of the build before, so rewriting its
// files in place changed the snapshot. It also sums what it writes for
// the output's checksum (mark.go).
type outFile struct {
	files *Files
	rel   string // the name in files
	name  string // the path
	// old is the file the buffer held, compared while every byte so far
	// equals its own; nil once the bytes differed or when there was none.
	old    *rawFile
	f      *rawFile // the new file, once written
	off    int64    // bytes written (or found equal) so far
	crc    uint32
	rbuf   []byte
	closed bool
}

// openOut opens the buffer's file rel of fs (path name) for an outFile.
// A file known not to exist is created at once, without comparing.
func openOut(fs *Files, rel, name string, exists bool) (*outFile, error) {
	o := &outFile{files: fs, rel: rel, name: name}
	if exists {
		f, err := openRaw(name, os.O_RDONLY, 0)
		if err == nil {
			o.old = f
			return o, nil
		}
		if !errors.Is(err, iofs.ErrNotExist) {
			return nil, err
		}
	}
	f, err := createNew(name)
	if err != nil {
		return nil, err
	}
	o.f = f
	return o, nil
}

func (o *outFile) Write(p []byte) (int, error) {
	o.crc = crc32.Update(o.crc, castagnoli, p)
	if o.old != nil {
		if cap(o.rbuf) < len(p) {
			o.rbuf = make([]byte, len(p))
		}
		n, _ := io.ReadFull(o.old, o.rbuf[:len(p)])
		if n == len(p) && bytes.Equal(o.rbuf[:n], p) {
			o.off += int64(n)
			return n, nil
		}
		if err := o.diverge(); err != nil {
			return 0, err
		}
	}
	n, err := o.f.Write(p)
	o.off += int64(n)
	return n, err
}

// diverge replaces the old file with a new one holding the bytes
// written so far, which equal the old file's first off bytes.
func (o *outFile) diverge() error {
	prefix := make([]byte, o.off)
	_, err := o.old.ReadAt(prefix, 0)
	o.old.Close()
	o.old = nil
	if err != nil {
		return err
	}
	f, err := createNew(o.name)
	if err != nil {
		return err
	}
	o.f = f
	_, err = f.Write(prefix)
	return err
}

// Close finishes the file: an old file equal so far but longer is
// replaced by its first off bytes.
func (o *outFile) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	if o.old != nil {
		var one [1]byte
		n, _ := o.old.Read(one[:])
		if n == 0 {
			o.old.Close()
			o.old = nil
			o.files.summed(o.rel, fileSum{size: o.off, crc: o.crc})
			return nil
		}
		if err := o.diverge(); err != nil {
			if o.f != nil {
				o.f.Close()
			}
			return err
		}
	}
	if err := o.f.Close(); err != nil {
		return err
	}
	o.files.summed(o.rel, fileSum{size: o.off, crc: o.crc})
	return nil
}
