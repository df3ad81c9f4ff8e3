package outdir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the directories a and b in one step with renameat2's
// RENAME_EXCHANGE: a reader of b sees the old or the new site, never
// neither. File systems without it get the three renames.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return renameExchange(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "renameat2 exchange", Old: a, New: b, Err: err}
	}
	return nil
}
