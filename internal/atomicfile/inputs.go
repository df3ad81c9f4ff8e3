package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Inputs are the files a command reads, kept so that no output it writes
// replaces one of them: trace import --out DIR and trace view -o FILE
// check every output against them before writing it.
type Inputs struct {
	files []input
}

type input struct {
	name string
	info os.FileInfo
}

// Add records r, the input messages call name, when r is a file (an
// *os.File, as os.Open and os.Stdin give); anything else is no file to
// protect.
func (in *Inputs) Add(name string, r any) {
	st, isFile := r.(interface{ Stat() (os.FileInfo, error) })
	if !isFile {
		return
	}
	if fi, err := st.Stat(); err == nil {
		in.files = append(in.files, input{name: name, info: fi})
	}
}

// Check refuses to write out over one of the inputs: the files are
// compared with os.SameFile, so another spelling of the path, a hard link
// or a symbolic link to the input is refused as well. A path that does
// not exist yet is no input.
func (in *Inputs) Check(out string) error {
	fi, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, f := range in.files {
		if os.SameFile(fi, f.info) {
			return fmt.Errorf("the output %s is the input %s: writing it would destroy the input; name another output", out, f.name)
		}
	}
	return nil
}

// Write replaces the file out with data (Write), after checking that out
// is none of the inputs.
func (in *Inputs) Write(out string, data []byte) error {
	if err := in.Check(out); err != nil {
		return err
	}
	return Write(filepath.Dir(out), filepath.Base(out), data)
}
