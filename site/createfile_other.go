//go:build !(linux || darwin)

package site

import (
	"io"
	"os"
)

// createFile creates (or truncates) a file for writing; see
// createfile_unix.go for why Linux and macOS do it differently.
func createFile(name string) (io.WriteCloser, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}
