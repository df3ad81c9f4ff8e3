//go:build unix

package outdir

import (
	"io"
	"os"
	"syscall"
)

// rawFile is a file of the build buffer read or written with plain
// system calls. os.OpenFile offers every regular file it opens to the
// runtime's poller, which refuses it: on Linux four fcntl calls and one
// failing epoll_ctl per file, five wasted calls for each of a site's
// 10,000 pages (BENCHMARKS.md, "Writing without the poller"). The
// build's reads and writes block anyway, as they would through os.File.
type rawFile struct {
	fd   int
	name string
}

// openRaw opens name with os.OpenFile's flags and permissions (before
// the umask), close-on-exec.
func openRaw(name string, flag int, perm os.FileMode) (*rawFile, error) {
	for {
		fd, err := sysOpen(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != 0 {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return &rawFile{fd: fd, name: name}, nil
	}
}

// Read reads like os.File.Read: io.EOF at the end.
func (f *rawFile) Read(p []byte) (int, error) {
	for {
		n, err := sysRead(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != 0 {
			return 0, &os.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt fills p from offset off, or says why not (io.EOF at the end).
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for done < len(p) {
		n, err := sysPread(f.fd, p[done:], off+int64(done))
		if err == syscall.EINTR {
			continue
		}
		if err != 0 {
			return done, &os.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 {
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

// Write writes all of p, or says why not.
func (f *rawFile) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := sysWrite(f.fd, p[done:])
		if err == syscall.EINTR {
			continue
		}
		if err != 0 {
			return done, &os.PathError{Op: "write", Path: f.name, Err: err}
		}
		if n == 0 {
			return done, &os.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
		}
		done += n
	}
	return done, nil
}

// Close closes the file once; a second Close is an error, as for os.File.
func (f *rawFile) Close() error {
	if f.fd < 0 {
		return &os.PathError{Op: "close", Path: f.name, Err: os.ErrClosed}
	}
	fd := f.fd
	f.fd = -1
	// close is not retried on EINTR: on Linux the descriptor is gone
	// whatever close answers.
	if err := sysClose(fd); err != 0 {
		return &os.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// mkdirOne makes the directory name (mode 0755 before the umask), or
// says why not: fs.ErrExist when it exists.
func mkdirOne(name string) error {
	for {
		err := sysMkdir(name, 0o755)
		if err == syscall.EINTR {
			continue
		}
		if err != 0 {
			return &os.PathError{Op: "mkdir", Path: name, Err: err}
		}
		return nil
	}
}
