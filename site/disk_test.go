package site

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/release"
	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestBuildReadsNoDisk holds Build to its rule: it renders the checked
// corpus and reads nothing from disk itself. The survey (with its history
// folder) and the agents list (with an intro.md) are copied, opened and
// built; then opened again, the copy removed, and built once more: the
// second build must give the first one's files, byte for byte.
func TestBuildReadsNoDisk(t *testing.T) {
	for _, tc := range []struct {
		name, src, profile string
		intro              bool
	}{
		{"survey", corpustest.Dir(t), data.SurveyProfile, false},
		{"agents", corpustest.List(t, "agents"), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "corpus")
			if err := os.CopyFS(dir, os.DirFS(tc.src)); err != nil {
				t.Fatal(err)
			}
			if tc.intro {
				if err := os.WriteFile(filepath.Join(dir, corpus.IntroFile), []byte("A list *of agents*.\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			open := func() *corpus.Checked {
				t.Helper()
				ck, err := corpus.OpenWith(dir, nil, tc.profile, corpus.CheckOptions{Today: today})
				if err != nil {
					t.Fatal(err)
				}
				return ck
			}
			history, err := release.ReadHistory(dir)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Config: siteconfig.Config{BaseURL: "https://example.org/l/"}, History: history}
			want := mustLoad(t, open(), opt)
			ck := open()
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			res, err := Build(ck, opt)
			if err != nil {
				t.Fatalf("Build after the corpus directory was removed: %v", err)
			}
			got := res.Files
			if !slices.Equal(got.Names(), want.Names()) {
				t.Fatalf("files differ:\n got %q\nwant %q", got.Names(), want.Names())
			}
			for _, name := range want.Names() {
				g, _ := got.Get(name)
				w, _ := want.Get(name)
				if !bytes.Equal(g, w) {
					t.Errorf("%s differs from the build with the corpus on disk", name)
				}
			}
			if tc.intro && !bytes.Contains(must(want.Get("index.html")), []byte("<em>of agents</em>")) {
				t.Error("the home page lacks intro.md")
			}
			if tc.name == "survey" && len(history.Snapshots) == 0 {
				t.Error("the survey's history folder gave no snapshots: the redirects are untested")
			}
		})
	}
}

// must is b of a Files.Get, empty when the file is missing.
func must(b []byte, _ bool) []byte { return b }
