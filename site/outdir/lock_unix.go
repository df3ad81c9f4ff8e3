//go:build unix

package outdir

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockOutput holds an exclusive lock on out's parent directory until
// unlock: two builds into the same output (masrl serve rebuilding while
// make site runs) share its buffer and must take turns. The kernel drops
// the lock when the process ends, so a killed build never leaves one.
func lockOutput(out string) (unlock func(), err error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Open(parent)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: parent, Err: err}
	}
	return func() { f.Close() }, nil
}
