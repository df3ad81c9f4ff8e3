package siteconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestProfile: --profile is taken before masrl.yaml's profile, an unknown one
// is refused with the profiles masrl knows, and a list without a
// masrl.yaml has none.
func TestProfile(t *testing.T) {
	withYAML := t.TempDir()
	if err := os.WriteFile(filepath.Join(withYAML, FileName), []byte("profile: survey\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, flag, dir, want, wantErr string
	}{
		{name: "flag", flag: "survey", dir: t.TempDir(), want: "survey"},
		{name: "masrl.yaml", dir: withYAML, want: "survey"},
		{name: "no masrl.yaml", dir: t.TempDir(), want: ""},
		{name: "unknown flag", flag: "surv", dir: withYAML, wantErr: `unknown profile "surv"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Profile(tc.flag, "", tc.dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Profile: %v, want an error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Profile = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestRead: a list without masrl.yaml reads as the zero Config, one with
// it as its keys say.
func TestRead(t *testing.T) {
	cfg, err := Read("", t.TempDir())
	if err != nil || cfg != (Config{}) {
		t.Fatalf("Read without masrl.yaml = %+v, %v; want the zero Config", cfg, err)
	}
	cfg, err = Read("", corpustest.List(t, "agents"))
	if err != nil || cfg.Title != "Awesome LLM Agents" {
		t.Fatalf("Read(agents) = %+v, %v; want its title", cfg, err)
	}
}

// TestOpen: the list opens with its own vocabulary; a directory without
// papers.csv is refused naming --corpus; an interrupted edit's journal
// refuses an open for editing only.
func TestOpen(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	ck, err := Open(dir, nil, "", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.Corpus.Papers) == 0 {
		t.Fatal("Open(agents): no papers")
	}
	d, err := LoadData(nil, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Vocabulary.File != ck.Vocabulary.File || !strings.HasSuffix(d.Vocabulary.File, "vocab.yaml") {
		t.Errorf("LoadData's vocabulary is %q, Open's %q; want the list's vocab.yaml", d.Vocabulary.File, ck.Vocabulary.File)
	}

	if _, err := Open(t.TempDir(), nil, "", OpenOptions{}); err == nil || !strings.Contains(err.Error(), "point --corpus at the corpus directory") {
		t.Errorf("Open without papers.csv: %v, want the --corpus hint", err)
	}

	if err := os.WriteFile(filepath.Join(dir, corpus.JournalFile), []byte("journal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *corpus.InterruptedError
	if _, err := Open(dir, nil, "", OpenOptions{ForEdit: true}); !errors.As(err, &ie) {
		t.Errorf("Open for editing with a journal: %v, want an *InterruptedError", err)
	}
	if _, err := Open(dir, nil, "", OpenOptions{}); err != nil {
		t.Errorf("Open to read with a journal: %v, want the journal as a finding only", err)
	}
}
