//go:build !linux

package outdir

import "os"

// stampOf is what a file's metadata says of its content: its size and
// modification time (stamp_linux.go adds the inode and change time).
func stampOf(fi os.FileInfo) fileStamp {
	return fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
