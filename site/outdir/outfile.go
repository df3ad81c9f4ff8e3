package outdir

import (
	"bytes"
	"io"
	"os"
)

// outFile writes a file of the build buffer without rewriting what it
// holds already: while the bytes written equal the file's, it only reads
// and compares them, and from the first difference on it writes. Close
// cuts the file to the length written. A rebuild of an unchanged corpus
// therefore reads its pages from the page cache and writes nothing, and
// one edited entry rewrites only the pages that show it; unchanged files
// keep their modification times, which spares a deployment by rsync.
type outFile struct {
	f    *os.File
	same bool  // every byte so far equals the file's
	off  int64 // bytes written (or found equal) so far
	rbuf []byte
}

// openOut opens name for an outFile, creating it when missing. A file
// known not to exist is written without comparing.
func openOut(name string, exists bool) (*outFile, error) {
	flag := os.O_RDWR | os.O_CREATE
	if !exists {
		flag |= os.O_TRUNC
	}
	f, err := os.OpenFile(name, flag, 0o644)
	if err != nil {
		return nil, err
	}
	return &outFile{f: f, same: exists}, nil
}

func (o *outFile) Write(p []byte) (int, error) {
	if o.same {
		if cap(o.rbuf) < len(p) {
			o.rbuf = make([]byte, len(p))
		}
		n, _ := io.ReadFull(o.f, o.rbuf[:len(p)])
		if n == len(p) && bytes.Equal(o.rbuf[:n], p) {
			o.off += int64(n)
			return n, nil
		}
		o.same = false
		if _, err := o.f.Seek(o.off, io.SeekStart); err != nil {
			return 0, err
		}
	}
	n, err := o.f.Write(p)
	o.off += int64(n)
	return n, err
}

// Close ends the file where the writing ended and closes it.
func (o *outFile) Close() error {
	if o.f == nil {
		return nil
	}
	f := o.f
	o.f = nil
	cut := !o.same
	if o.same {
		// Equal so far: anything after it is left from a longer file.
		var one [1]byte
		n, _ := f.Read(one[:])
		cut = n > 0
	}
	if cut {
		if err := f.Truncate(o.off); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
