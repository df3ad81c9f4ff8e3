//go:build !unix

package outdir

import "os"

// rawFile is an os.File where there are no Unix system calls to bypass
// the runtime's poller with (rawfile_unix.go says why they do).
type rawFile = os.File

// openRaw opens name like os.OpenFile.
func openRaw(name string, flag int, perm os.FileMode) (*rawFile, error) {
	return os.OpenFile(name, flag, perm)
}

// mkdirOne makes the directory name like os.Mkdir.
func mkdirOne(name string) error { return os.Mkdir(name, 0o755) }
