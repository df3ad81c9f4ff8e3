package corpus

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEdit holds Edit to its rule: an edit that adds a check error is
// refused with the counts and writes nothing; a dry run of a good edit
// writes nothing; the same edit without DryRun is written; and the
// proposal comes back in every case, for the caller's report.
func TestEdit(t *testing.T) {
	dir := baseCorpus(t)
	open := func() *Checked {
		ck, err := OpenWith(dir, nil, "", CheckOptions{Today: checkDay})
		if err != nil {
			t.Fatal(err)
		}
		return ck
	}
	papers, err := os.ReadFile(filepath.Join(dir, PapersFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(papers), "\n")
	dup := strings.Join(append(slices.Clone(lines[:len(lines)-1]), lines[1]), "") // the first row again
	good := strings.Replace(string(papers), "Shared reward over a team", "Shared reward over the whole team", 1)
	if good == string(papers) {
		t.Fatal("the base corpus changed: the edit below changes nothing")
	}
	before := dirState(t, dir)

	p, err := Edit(open(), map[string][]byte{PapersFile: []byte(dup)}, EditOptions{})
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Before != 0 || refused.After == 0 || p == nil || refused.Proposal != p {
		t.Fatalf("a duplicated row: %v (%+v), want a *RefusedError from 0 errors to more, with the proposal", err, refused)
	}
	if !maps.Equal(before, dirState(t, dir)) {
		t.Fatal("a refused edit changed the corpus directory")
	}
	// The refusal reports the check of the corpus as the edit would
	// have left it, as masrl check prints it.
	var check, want strings.Builder
	refused.WriteCheck(&check)
	p.After.Report(p.Dir, false).Write(&want, "text")
	if check.String() != want.String() || !strings.Contains(check.String(), "error") {
		t.Errorf("WriteCheck:\n%s\nwant:\n%s", check.String(), want.String())
	}

	p, err = Edit(open(), map[string][]byte{PapersFile: []byte(good)}, EditOptions{DryRun: true})
	if err != nil || p == nil || len(p.Diff().Changed) != 1 {
		t.Fatalf("a dry run of a good edit: %v, want its proposal with one changed entry", err)
	}
	if !maps.Equal(before, dirState(t, dir)) {
		t.Fatal("a dry run changed the corpus directory")
	}
	var diff strings.Builder
	p.WriteDiff(&diff)
	if got := diff.String(); !strings.HasPrefix(got, "\n## Corpus diff\n\n`before` → `after`: ") || !strings.Contains(got, "1 changed") {
		t.Errorf("WriteDiff:\n%s", got)
	}

	if _, err := Edit(open(), map[string][]byte{PapersFile: []byte(good)}, EditOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, PapersFile)); string(got) != good {
		t.Fatal("a good edit was not written")
	}
}
