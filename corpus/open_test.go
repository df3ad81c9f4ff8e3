package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
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

// TestOpenProfile: without a profile a list gets nothing of the survey's
// (no claims, pool or survey) unless it keeps a claims.yaml of its own,
// which is then read from its directory and named there in positions;
// an unknown profile is an error naming the known ones.
func TestOpenProfile(t *testing.T) {
	ck, err := OpenWith("testdata/base", nil, "", CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	if ck.Claims != nil || ck.Pool != nil || ck.Survey != nil || ck.ListTitle() != "" || ck.Profile != "" {
		t.Errorf("no profile: claims %v, pool %v, survey %v, title %q", ck.Claims, ck.Pool, ck.Survey, ck.ListTitle())
	}
	sv, err := OpenWith("testdata/base", nil, data.SurveyProfile, CheckOptions{Today: openToday})
	if err != nil {
		t.Fatal(err)
	}
	if sv.Claims == nil || sv.Survey == nil || sv.ListTitle() == "" {
		t.Error("the survey profile: want the embedded claims, survey and list title")
	}

	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/base")); err != nil {
		t.Fatal(err)
	}
	own := "claims:\n  - {id: total/retained, kind: total, of: retained, expect: 99, description: rows, source: README}\n"
	if err := os.WriteFile(filepath.Join(dir, ListClaimsFile), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	ck, err = Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if ck.Claims == nil || len(ck.Claims.Claims) != 1 || ck.Survey != nil {
		t.Fatalf("own claims.yaml: claims %v, survey %v", ck.Claims, ck.Survey)
	}
	res := VerifyClaims(ck.Corpus, ck.Vocabulary, ck.Claims)
	ds := ClaimDiagnostics(res)
	if len(ds) != 1 || ds[0].Severity != Error || ds[0].Pos.File != filepath.Join(dir, ListClaimsFile) || ds[0].Pos.Line != 2 {
		t.Errorf("own failing claim: %v, want one error at %s:2", ds, filepath.Join(dir, ListClaimsFile))
	}

	if err := os.WriteFile(filepath.Join(dir, ListClaimsFile), []byte("claims: [oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil, ""); err == nil || !strings.Contains(err.Error(), ListClaimsFile) {
		t.Errorf("broken claims.yaml: %v, want an error naming it", err)
	}
	if _, err := Open("testdata/base", nil, "surveys"); err == nil || !strings.Contains(err.Error(), `unknown profile "surveys"; masrl knows survey`) {
		t.Errorf("unknown profile: %v", err)
	}
}
