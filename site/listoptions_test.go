package site

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
)

// TestListOptions: the options of a list on disk are masrl.yaml's
// settings under the overrides, its templates: folder laid over the
// embedded templates, its history, and opt's own fields kept.
func TestListOptions(t *testing.T) {
	dir := corpustest.CopyList(t, "agents")
	opt, err := ListOptions(dir, "", map[string]string{"description": "From the flag."}, Options{Out: "out", WithClaims: true})
	if err != nil {
		t.Fatal(err)
	}
	if opt.Title != "Awesome LLM Agents" || opt.Description != "From the flag." {
		t.Errorf("title, description = %q, %q; want masrl.yaml's title and the override", opt.Title, opt.Description)
	}
	if opt.Out != "out" || !opt.WithClaims || opt.History == nil || opt.AddedDates == nil {
		t.Errorf("ListOptions lost opt's fields or read no history: %+v", opt)
	}
	if _, err := fs.Stat(opt.Templates, "layout.html"); err != nil {
		t.Errorf("templates: %v, want the embedded ones", err)
	}

	// A templates: folder in masrl.yaml is laid over the embedded ones.
	if err := os.MkdirAll(filepath.Join(dir, "theme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "theme", "mine.html"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "masrl.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("templates: theme\n")
	f.Close()
	opt, err = ListOptions(dir, "", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mine.html", "layout.html"} {
		if _, err := fs.Stat(opt.Templates, name); err != nil {
			t.Errorf("templates: folder over the embedded ones: %s: %v", name, err)
		}
	}

	// A templates: folder that is not there is the error.
	if err := os.RemoveAll(filepath.Join(dir, "theme")); err != nil {
		t.Fatal(err)
	}
	if _, err := ListOptions(dir, "", nil, Options{}); err == nil {
		t.Error("ListOptions with a missing templates: folder: no error")
	}
}

// TestWriteOutcome: warnings always, then a refused check's errors with
// the refusal, or the error; refused only for the check.
func TestWriteOutcome(t *testing.T) {
	warn := corpus.Diagnostic{Severity: corpus.Warning, Pos: corpus.Pos{File: "papers.csv", Line: 2, Col: 1}, Message: "a warning"}
	bad := corpus.Diagnostic{Severity: corpus.Error, Pos: corpus.Pos{File: "papers.csv", Line: 3, Col: 1}, Message: "an error"}
	for _, tc := range []struct {
		name        string
		err         error
		want        string
		wantRefused bool
	}{
		{name: "built", want: warn.String() + "\n"},
		{name: "refused", err: &corpus.CheckError{Diagnostics: corpus.Diagnostics{bad}}, wantRefused: true,
			want: warn.String() + "\n" + bad.String() + "\nmasrl build: the corpus has 1 error; the previous site was left as it was\n"},
		{name: "failed", err: errors.New("disk full"), want: warn.String() + "\nmasrl build: disk full\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			refused := WriteOutcome(&b, "masrl build", &Result{Warnings: corpus.Diagnostics{warn}}, tc.err)
			if refused != tc.wantRefused || b.String() != tc.want {
				t.Errorf("WriteOutcome = %v, %q; want %v, %q", refused, b.String(), tc.wantRefused, tc.want)
			}
		})
	}
}
