package trace

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only. The file's pages are
// then read where the page cache holds them, without being copied.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, errors.New("no size to map")
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	cerr := rc.Control(func(fd uintptr) {
		data, err = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	})
	if cerr != nil {
		return nil, cerr
	}
	return data, err
}

// unmapFile undoes mapFile.
func unmapFile(data []byte) error { return syscall.Munmap(data) }

// releaseMapped drops b's pages from the process (they stay in the page
// cache): a large file scanned once would otherwise stay resident to the
// end, its whole size on top of the validator's memory. A failure only
// leaves the pages resident, so it is not reported.
func releaseMapped(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
