//go:build !linux

package trace

import (
	"errors"
	"os"
)

// mapFile maps files on Linux only; elsewhere the file is read (the
// system calls and their flags differ, and the figures that justify the
// mapping were measured on Linux).
func mapFile(f *os.File, size int64) ([]byte, error) {
	return nil, errors.New("files are mapped on Linux only")
}

func unmapFile(data []byte) error { return nil }

func releaseMapped(b []byte) {}
