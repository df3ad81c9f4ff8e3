package citation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestPlanWritesRelease runs a cite with --snapshot through its API: the
// plan finds both files stale in a missing --out, Write makes --out,
// writes them and puts the staged release in place, its hash the plan's, a new
// plan finds nothing stale, the same release is then refused before
// anything is read, and an --out that is a file is an error naming it.
func TestPlanWritesRelease(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	f, err := os.OpenFile(filepath.Join(dir, "masrl.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("citation:\n  authors: \"Doe, Jane\"\n")
	f.Close()
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Out: filepath.Join(t.TempDir(), "top"), Version: "v1", Date: "2026-01-02", Snapshot: true}
	if err := Refuse(dir, req); err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(ck, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Stale) != 2 {
		t.Errorf("stale %q, want both files", plan.Stale)
	}
	staged, err := release.Stage(dir, req.Version, req.Date)
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Discard()
	if err := plan.Write(staged); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "releases", "v1")
	if st, err := os.Stat(folder); err != nil || !st.IsDir() || staged.Hash != plan.Hash {
		t.Errorf("release folder %s: %v; hash %s, want %s", folder, err, staged.Hash, plan.Hash)
	}
	again, err := NewPlan(ck, Request{Out: req.Out, Version: "v1", Date: "2026-01-02"})
	if err != nil || len(again.Stale) != 0 {
		t.Errorf("after Write: %v, stale %q; want none", err, again.Stale)
	}
	if err := Refuse(dir, req); err == nil {
		t.Error("the same release again was not refused")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	plan.Out, plan.Snapshot = file, false
	if err := plan.Write(nil); err == nil || !strings.Contains(err.Error(), "--out "+file+" is a file, not a directory") {
		t.Errorf("an --out that is a file: %v", err)
	}
}

// TestPlanCite: a cite with Snapshot stages the release, writes the
// files and puts the release in place with the plan's hash; without it
// no release is made.
func TestPlanCite(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	f, err := os.OpenFile(filepath.Join(dir, "masrl.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("citation:\n  authors: \"Doe, Jane\"\n")
	f.Close()
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	plan, err := NewPlan(ck, Request{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if staged, err := plan.Cite(); err != nil || staged != nil {
		t.Fatalf("a cite without --snapshot: %v, release %v; want none", err, staged)
	}
	if _, err := os.Stat(filepath.Join(out, "CITATION.cff")); err != nil {
		t.Fatal(err)
	}
	plan, err = NewPlan(ck, Request{Out: out, Version: "v1", Date: "2026-01-02", Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	staged, err := plan.Cite()
	if err != nil || staged == nil || staged.Hash != plan.Hash {
		t.Fatalf("a cite with --snapshot: %v, release %v; want the release with hash %s", err, staged, plan.Hash)
	}
	if st, err := os.Stat(filepath.Join(dir, "releases", "v1")); err != nil || !st.IsDir() {
		t.Errorf("release folder: %v", err)
	}
}

// TestRefuseRequest: a date that is not YYYY-MM-DD and a snapshot
// without its version and date, or with --check, are refused before the
// corpus is looked at.
func TestRefuseRequest(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Date: "2026-1-2"}, `--date "2026-1-2": want YYYY-MM-DD`},
		{Request{Snapshot: true, Version: "v1"}, "--snapshot needs --version and --date, and not --check"},
		{Request{Snapshot: true, Version: "v1", Date: "2026-01-02", Check: true}, "--snapshot needs --version and --date, and not --check"},
	} {
		if err := Refuse(dir, tc.req); err == nil || err.Error() != tc.want {
			t.Errorf("Refuse(%+v) = %v, want %s", tc.req, err, tc.want)
		}
	}
}

// TestPlanRefusesChangedCorpus: a release staged after the corpus changed
// is not the one the plan cites: Write refuses it and writes no file.
func TestPlanRefusesChangedCorpus(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	os.WriteFile(filepath.Join(dir, "masrl.yaml"), []byte("title: Agents\ncitation:\n  authors: \"Doe, Jane\"\n"), 0o644)
	ck, err := corpus.Open(dir, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(ck, Request{Out: filepath.Join(t.TempDir(), "top"), Version: "v1", Date: "2026-01-02", Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, corpus.PapersFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n")
	f.Close()
	staged, err := release.Stage(dir, "v1", "2026-01-02")
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Discard()
	if err := plan.Write(staged); err == nil || !strings.Contains(err.Error(), "the corpus changed while masrl cite ran") {
		t.Fatalf("a release of changed content: %v", err)
	}
	if _, err := os.Stat(plan.Out); err == nil {
		t.Error("the refused cite made --out")
	}
}
