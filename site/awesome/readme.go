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

// StandaloneMeta is what a standalone list says about itself: the
// survey's words with its pool (the survey's profile), else the list's
// title and description (masrl.yaml's), which awesome-lint needs; ok is
// false without the pool when either is empty, for the survey's words do
// not apply to another list.
func StandaloneMeta(c *corpus.Corpus, pool *corpus.Pool, title, description string) (m Meta, ok bool) {
	if pool != nil {
		return SurveyMeta(c, pool), true
	}
	if title == "" || description == "" {
		return Meta{}, false
	}
	return ListMeta(title, description), true
}
