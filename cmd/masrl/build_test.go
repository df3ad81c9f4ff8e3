package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus/siteconfig"
)

// parseBuildFlags parses args as masrl build would and returns the options.
func parseBuildFlags(t *testing.T, args ...string) buildFlags {
	t.Helper()
	fs := newFlagSet("build", buildUsage, io.Discard)
	bf := addBuildFlags(fs, "base URL")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return bf
}

// TestBuildOptionsConfig: masrl.yaml in the corpus directory sets the
// site's options, and a flag given a value overrides its key.
func TestBuildOptionsConfig(t *testing.T) {
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
	if err := os.WriteFile(filepath.Join(dir, siteconfig.FileName), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	bf := parseBuildFlags(t, "--corpus", dir)
	opt, err := bf.options()
	if err != nil {
		t.Fatal(err)
	}
	if opt.Title != "From the file" || opt.Description != "A description." || opt.Language != "de" ||
		opt.BaseURL != "https://file.example.org/" || opt.Repository.URL != "https://github.com/file/list" ||
		opt.Repository.Corpus != "data" || opt.Release.Sums != filepath.Join(dir, "SHA256SUMS") {
		t.Errorf("options from the file: %+v", opt)
	}

	bf = parseBuildFlags(t, "--corpus", dir, "--title", "From the flag", "--base-url", "https://flag.example.org/x/", "--repository-branch", "trunk", "--release-sums", "here/SUMS")
	opt, err = bf.options()
	if err != nil {
		t.Fatal(err)
	}
	if opt.Title != "From the flag" || opt.BaseURL != "https://flag.example.org/x/" || opt.Repository.Branch != "trunk" ||
		opt.Release.Sums != "here/SUMS" || opt.Description != "A description." {
		t.Errorf("flags should override only their keys: %+v", opt)
	}

	// --config names another file; a flag's value is checked like the key's.
	other := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(other, []byte("title: Other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bf = parseBuildFlags(t, "--corpus", dir, "--config", other)
	if opt, err = bf.options(); err != nil || opt.Title != "Other" || opt.BaseURL != "" {
		t.Errorf("--config: %+v, %v", opt, err)
	}
	bf = parseBuildFlags(t, "--corpus", dir, "--repository", "javascript:alert(1)")
	if _, err = bf.options(); err == nil || !strings.Contains(err.Error(), "--repository (repository.url)") {
		t.Errorf("bad --repository: %v", err)
	}
	bf = parseBuildFlags(t, "--corpus", dir, "--config", filepath.Join(dir, "missing.yaml"))
	if _, err = bf.options(); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("missing --config file: %v", err)
	}
}
