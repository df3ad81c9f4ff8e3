package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
)

// Reformat is what masrl fmt finds in a corpus directory (FormatDir):
// the files that are not in canonical form, with their canonical
// content, and the files it could not format.
type Reformat struct {
	// Changes are the files to rewrite, by name, for Apply.
	Changes map[string][]byte
	// Names are the changed files, in FormatFiles order.
	Names []string
	// Problems are the files that could not be formatted, in
	// FormatFiles order; with any, nothing is to be written, so that a
	// file that does not parse leaves all of them untouched, as gofmt
	// does.
	Problems []FormatProblem
}

// WriteProblems writes, as prog (masrl fmt), why each file with a
// problem was not formatted: a file that could not be read on a line of
// its own after prog, the syntax errors of one that does not parse with
// their positions, as masrl check prints them.
func (r *Reformat) WriteProblems(w io.Writer, prog string) {
	for _, p := range r.Problems {
		if p.Unread {
			fmt.Fprintf(w, "%s: %v\n", prog, p.Err)
		} else {
			fmt.Fprintln(w, p.Err)
		}
	}
}

// FormatProblem is a corpus file FormatDir could not format.
type FormatProblem struct {
	// Err names the file: a read error, or every syntax error of the
	// file with its position (a *CheckError).
	Err error
	// Unread says that the file could not be read at all.
	Unread bool
}

// FormatDir formats every corpus file of dir that has a canonical form
// (FormatFiles) and is there, in memory: a missing file is check's
// finding, not this one's. The list's own vocabulary, when dir has one,
// orders the values of its multi-valued fields; one that does not parse
// is also check's to report. Nothing is written.
func FormatDir(dir string) *Reformat {
	v, _ := ListVocabulary(dir)
	r := &Reformat{Changes: map[string][]byte{}}
	for _, name := range FormatFiles() {
		src, err := ReadFile(dir, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			r.Problems = append(r.Problems, FormatProblem{Err: err, Unread: true})
			continue
		}
		out, err := FormatWith(filepath.Join(dir, name), src, v)
		if err != nil {
			r.Problems = append(r.Problems, FormatProblem{Err: err})
			continue
		}
		if !bytes.Equal(out, src) {
			r.Changes[name] = out
			r.Names = append(r.Names, name)
		}
	}
	return r
}
