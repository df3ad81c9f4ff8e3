package awesome

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/corpus"
)

// UpdateFile brings the generated block of the README file up to date
// with list (ReplaceBlock) and reports whether it was out of date; check
// only compares (masrl readme --check), else a stale file is replaced at
// once (corpus.WriteFiles), never left half-written. A file without the
// markers is refused with its name.
func UpdateFile(file string, list []byte, check bool) (stale bool, err error) {
	doc, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	out, err := ReplaceBlock(doc, list)
	if errors.Is(err, ErrNoMarkers) {
		return false, fmt.Errorf("%s: %w", file, err)
	}
	if bytes.Equal(out, doc) || check {
		return !bytes.Equal(out, doc), nil
	}
	return true, corpus.WriteFiles(filepath.Dir(file), map[string][]byte{filepath.Base(file): out})
}
