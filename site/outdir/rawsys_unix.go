//go:build unix && !linux

package outdir

import "syscall"

// The build buffer's system calls where the syscall package is the way
// to them (rawsys_linux.go uses RawSyscall); each returns the errno, 0
// for none.

func errno(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EIO
}

func sysOpen(path string, flag int, perm uint32) (int, syscall.Errno) {
	fd, err := syscall.Open(path, flag, perm)
	return fd, errno(err)
}

func sysMkdir(path string, perm uint32) syscall.Errno { return errno(syscall.Mkdir(path, perm)) }

func sysRead(fd int, b []byte) (int, syscall.Errno) {
	n, err := syscall.Read(fd, b)
	return n, errno(err)
}

func sysPread(fd int, b []byte, off int64) (int, syscall.Errno) {
	n, err := syscall.Pread(fd, b, off)
	return n, errno(err)
}

func sysWrite(fd int, b []byte) (int, syscall.Errno) {
	n, err := syscall.Write(fd, b)
	return n, errno(err)
}

func sysClose(fd int) syscall.Errno { return errno(syscall.Close(fd)) }
