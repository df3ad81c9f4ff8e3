package corpus

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/masrl/masrl/data"
)

var openToday = time.Date(2026, 5, 5, 0, 0, 0, 0, time.UTC)

// TestOpen checks that Open sees what loading and checking by hand sees:
// the same findings, the embedded vocabulary, claims and pool.
func TestOpen(t *testing.T) {
	ck, err := OpenWith("testdata/base", nil, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load("testdata/base")
	if err != nil {
		t.Fatal(err)
	}
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want := Check(c, v, CheckOptions{Today: openToday})
	if got := ck.Diagnostics(); !slices.EqualFunc(got, want, func(a, b Diagnostic) bool { return a.String() == b.String() }) {
		t.Errorf("Open's findings differ from Load and Check:\n%v\nwant\n%v", got, want)
	}
	if len(ck.Corpus.Papers) != len(c.Papers) || ck.Pool == nil || ck.Claims.Pool != ck.Pool || ck.FS != fs.FS(data.FS) {
		t.Errorf("Open: %d papers (want %d), pool %v, data %v: want the embedded data with the survey's pool", len(ck.Corpus.Papers), len(c.Papers), ck.Pool, ck.FS)
	}
	for _, d := range ck.Warnings() {
		if d.Severity == Error {
			t.Errorf("Warnings holds an error: %v", d)
		}
	}
	if (ck.Err() != nil) != (want.Count(Error) > 0) {
		t.Errorf("Err = %v with %d errors", ck.Err(), want.Count(Error))
	}
}

// TestOpenData checks that the data directory given to Open drives the
// check: a vocabulary without the value "shared" makes alpha's row wrong.
func TestOpenData(t *testing.T) {
	b, err := fs.ReadFile(data.FS, "vocab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vocab := strings.Replace(string(b), "- value: shared\n", "- value: shared-team\n", 1)
	if vocab == string(b) {
		t.Fatal("vocab.yaml has no value shared to rename")
	}
	dfs := data.Overlay(fstest.MapFS{"vocab.yaml": {Data: []byte(vocab)}, "claims.yaml": {Data: []byte("claims: []\n")}}, data.FS)
	ck, err := OpenWith("testdata/base", dfs, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range ck.Diagnostics() {
		found = found || d.Severity == Error && d.Field == "reward_type" && d.Value == "shared"
	}
	if !found {
		t.Errorf("the data directory's vocabulary was not used: no error for reward_type shared in\n%v", ck.Diagnostics())
	}
	if ck.Pool != nil {
		t.Errorf("claims naming no pool gave pool %v", ck.Pool)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(t.TempDir(), nil, ""); err == nil {
		t.Error("Open of a directory without papers.csv: no error")
	}
	bad := data.Overlay(fstest.MapFS{"vocab.yaml": {Data: []byte("fields: [{name: x}]\n")}}, data.FS)
	if _, err := Open("testdata/base", bad, ""); err == nil || !strings.Contains(err.Error(), "vocab.yaml") {
		t.Errorf("Open with a broken vocabulary: %v, want an error naming vocab.yaml", err)
	}
}
