package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// proposedCheck is the check of a corpus as a command proposes to leave
// it, beside the check of the corpus as it stands.
type proposedCheck struct {
	// Before and After are the two checks; After's positions name the
	// corpus directory, not the scratch copy it was read from.
	Before, After checkReport
	// Corpus is the proposed corpus, for a diff; its own positions name
	// the scratch copy, which is gone once checkProposed returns.
	Corpus *corpus.Corpus
}

// Worse reports whether the proposed corpus has more check errors than
// the corpus had: the one rule refresh --write, watch --apply and add
// refuse a change by.
func (p *proposedCheck) Worse() bool {
	return p.After.Errors > p.Before.Errors
}

// checkProposed checks the corpus of dir as it would be with files (a
// file name in the corpus directory, and its new content) in place of its
// own, without changing dir: the corpus files are copied into a scratch
// directory, the new ones over them, and loaded and checked there against
// ck's data. ck is the corpus as it stands, already being checked. The
// error is for what could not be read or written at all.
func checkProposed(dir string, ck *corpus.Checked, files map[string][]byte, withClaims bool) (*proposedCheck, error) {
	before := checkCorpus(dir, ck, withClaims)
	scratch, err := os.MkdirTemp("", "masrl-proposed-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	all := map[string][]byte{}
	for _, f := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile, corpus.SpotcheckFile} {
		if b, ok := files[f]; ok {
			all[f] = b
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		all[f] = b
	}
	for f := range files {
		if _, ok := all[f]; !ok {
			return nil, fmt.Errorf("%s is not a corpus file", f)
		}
	}
	if err := corpus.WriteFiles(scratch, all); err != nil {
		return nil, err
	}
	// The corpus's own names in place of the scratch copy's, in positions
	// and in messages that name another place ("also retained as ... (FILE,
	// line N)").
	own := strings.NewReplacer(scratch+string(filepath.Separator), dir+string(filepath.Separator), scratch, dir)
	nc, err := corpus.Load(scratch)
	if err != nil {
		return nil, errors.New(own.Replace(err.Error()))
	}
	after := checkCorpus(dir, corpus.StartCheck(nc, ck.Data, corpus.CheckOptions{}), withClaims)
	for i := range after.Diagnostics {
		d := &after.Diagnostics[i]
		d.Pos.File = own.Replace(d.Pos.File)
		d.Message = own.Replace(d.Message)
	}
	return &proposedCheck{Before: before, After: after, Corpus: nc}, nil
}
