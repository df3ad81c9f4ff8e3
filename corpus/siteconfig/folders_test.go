package siteconfig

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestResolve: masrl.yaml in the corpus directory sets the site's
// options, and an override (a flag given a value) replaces its key alone.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	cfg := `title: From the file
description: A description.
language: de
base_url: https://file.example.org/
repository:
  url: https://github.com/file/list
  corpus: data
release:
  url: https://github.com/masrl/masrl/releases/download/v1.0.0/
  sums: SHA256SUMS
`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, configDir, err := Resolve("", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "From the file" || c.Description != "A description." || c.Language != "de" ||
		c.BaseURL != "https://file.example.org/" || c.Repository.URL != "https://github.com/file/list" ||
		c.Repository.Corpus != "data" || c.Release.Sums != filepath.Join(dir, "SHA256SUMS") || configDir != dir {
		t.Errorf("options from the file: %+v, %s", c, configDir)
	}

	c, _, err = Resolve("", dir, map[string]string{"title": "From the flag", "base_url": "https://flag.example.org/x/", "repository.branch": "trunk", "release.sums": "here/SUMS", "language": ""})
	if err != nil {
		t.Fatal(err)
	}
	if c.Title != "From the flag" || c.BaseURL != "https://flag.example.org/x/" || c.Repository.Branch != "trunk" ||
		c.Release.Sums != "here/SUMS" || c.Description != "A description." || c.Language != "de" {
		t.Errorf("overrides should replace only their keys: %+v", c)
	}

	// config names another file; an override is checked like the key.
	other := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(other, []byte("title: Other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, configDir, err = Resolve(other, dir, nil); err != nil || c.Title != "Other" || c.BaseURL != "" || configDir != filepath.Dir(other) {
		t.Errorf("config: %+v, %s, %v", c, configDir, err)
	}
	if _, _, err = Resolve("", dir, map[string]string{"repository.url": "javascript:alert(1)"}); err == nil || !strings.Contains(err.Error(), "--repository (repository.url)") {
		t.Errorf("bad repository override: %v", err)
	}
	if _, _, err = Resolve(filepath.Join(dir, "missing.yaml"), dir, nil); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("missing config file: %v", err)
	}
	// Without a file: the zero Config, and no folder.
	if c, configDir, err = Resolve("", t.TempDir(), nil); err != nil || *c != (Config{}) || configDir != "" {
		t.Errorf("no file: %+v, %q, %v", c, configDir, err)
	}
}

// TestFolders: the templates: folder is read inside masrl.yaml's folder
// and the assets: folder inside the corpus; a symbolic link out of
// either is refused with its name; Inputs names the file and both
// folders for masrl serve to watch.
func TestFolders(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{"theme", "assets"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "theme", "papers.html"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("templates: theme\nassets: assets\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, configDir, err := Resolve("", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tfs, err := c.OpenTemplates(configDir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(tfs, "papers.html"); err != nil || string(b) != "mine" {
		t.Errorf("templates folder: %q, %v", b, err)
	}
	if got, want := Inputs("", dir), []string{filepath.Join(dir, FileName), filepath.Join(dir, "theme"), filepath.Join(dir, "assets")}; !slices.Equal(got, want) {
		t.Errorf("Inputs: %q, want %q", got, want)
	}
	if afs, err := c.OpenAssets(dir); err != nil || afs == nil {
		t.Errorf("assets folder: %v, %v", afs, err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "assets", "out")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenAssets(dir); err == nil || !strings.Contains(err.Error(), "assets/out: a symbolic link to "+outside) {
		t.Errorf("a link out of the assets: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	c.Templates = filepath.Join(dir, "out")
	if _, err := c.OpenTemplates(configDir); err == nil || !strings.Contains(err.Error(), "out: a symbolic link to "+outside) {
		t.Errorf("a templates folder out of its root: %v", err)
	}
	// No assets folder is none, unless masrl.yaml names one.
	empty := t.TempDir()
	if afs, err := (&Config{}).OpenAssets(empty); err != nil || afs != nil {
		t.Errorf("no assets folder: %v, %v", afs, err)
	}
	if _, err := (&Config{Theme: Theme{Assets: "static"}}).OpenAssets(empty); err == nil || !strings.Contains(err.Error(), "masrl.yaml: assets: ") {
		t.Errorf("a named assets folder that is not there: %v", err)
	}
	// Named by --assets, the error names the flag, not masrl.yaml, and no
	// system call's name ("statat").
	flagged, _, err := Resolve("", empty, map[string]string{"assets": "static"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = flagged.OpenAssets(empty)
	if err == nil || !strings.HasPrefix(err.Error(), "--assets: "+filepath.Join(empty, "static")+": ") || strings.Contains(err.Error(), "statat") {
		t.Errorf("--assets naming a folder that is not there: %v", err)
	}
}

// TestDeclareFlags: every key has its flag, named by Key.Flag; the values
// given come back by key name, and base_url's usage is the command's.
func TestDeclareFlags(t *testing.T) {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	f := DeclareFlags(fs, "where it is served")
	if err := fs.Parse([]string{"--title", "Mine", "--repository-branch", "trunk"}); err != nil {
		t.Fatal(err)
	}
	o := f.Overrides()
	if len(o) != len(Keys()) || o["title"] != "Mine" || o["repository.branch"] != "trunk" || o["base_url"] != "" {
		t.Errorf("overrides: %v", o)
	}
	if u := fs.Lookup("base-url").Usage; u != "where it is served" {
		t.Errorf("--base-url's usage: %q", u)
	}
	if u := fs.Lookup("title").Usage; !strings.HasSuffix(u, " (masrl.yaml: title)") {
		t.Errorf("--title's usage: %q", u)
	}
}
