package outdir

import (
	"syscall"
	"unsafe"
)

// The build buffer's system calls on Linux go through RawSyscall, which
// leaves the calling goroutine's processor (P) with it. syscall.Syscall
// marks the goroutine as in a system call, and one that takes longer
// than 20 µs (an ext4 mkdir or O_CREAT open that allocates an inode
// does) has its P taken by the runtime's monitor and handed to another
// thread, which the caller then waits for on its way back: a 10,000-page
// build made 28,000 futex and 49,000 nanosleep calls for it, besides its
// 31,000 mkdir, open and write calls (bench/profile/build-10k-2.md).
// The calls here never wait on a pipe or socket, only on the file
// system; the build's workers are one per P anyway, so a P kept through
// a call of the file system idles no other goroutine that could run,
// but it idles the CPU while the call waits for the disk or for the
// lock of its directory: the entry pages' directories, all in papers/,
// are made ahead on a goroutine of their own (Files.MakeDirs).
// Each returns the errno, 0 for none.

func sysOpen(path string, flag int, perm uint32) (int, syscall.Errno) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, syscall.EINVAL
	}
	fd, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(p)), uintptr(flag), uintptr(perm), 0, 0)
	return int(fd), e
}

func sysMkdir(path string, perm uint32) syscall.Errno {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return syscall.EINVAL
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_MKDIRAT, atFDCWD, uintptr(unsafe.Pointer(p)), uintptr(perm))
	return e
}

func sysRead(fd int, b []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(bufPtr(b)), uintptr(len(b)))
	return int(n), e
}

// sysPread goes the ordinary way: it only runs when a rebuild's page
// differs from the buffer's copy, and pread64's offset is one argument
// on 64-bit Linux but two on 32-bit.
func sysPread(fd int, b []byte, off int64) (int, syscall.Errno) {
	n, err := syscall.Pread(fd, b, off)
	if err == nil {
		return n, 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return n, e
	}
	return n, syscall.EIO
}

func sysWrite(fd int, b []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(bufPtr(b)), uintptr(len(b)))
	return int(n), e
}

func sysClose(fd int) syscall.Errno {
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
	return e
}

// atFDCWD is AT_FDCWD (-100): a path relative to the working directory.
var atFDCWD = ^uintptr(99)

// bufPtr is the address of b's first byte, or of a zero byte when b is
// empty (the kernel reads nothing then).
func bufPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return unsafe.Pointer(&zeroByte)
	}
	return unsafe.Pointer(&b[0])
}

var zeroByte byte
