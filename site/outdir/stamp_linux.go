package outdir

import (
	"os"
	"syscall"
)

// stampOf is what a file's metadata says of its content: inode, size,
// and the times of its last write and last change. The change time
// cannot be set back, so a write by anything (an editor saving in place
// or by rename) gives another stamp.
func stampOf(fi os.FileInfo) fileStamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	}
	return fileStamp{ino: st.Ino, size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: st.Ctim.Nano()}
}
