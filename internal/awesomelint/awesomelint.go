// Package awesomelint runs awesome-lint (npm, pinned in package.json) on a
// markdown list for the tests of every package that writes one, the same
// way: as the readme of a fresh git repository whose remote is on GitHub,
// beside a contributing file, which is what awesome-lint inspects.
//
// Without node or node_modules the test fails under make test
// (MASRL_BROWSER set) and skips otherwise, as the browser tests do.
package awesomelint

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/masrl/masrl/internal/corpustest"
)

// Check lints list and fails the test with awesome-lint's report on any
// error.
func Check(t testing.TB, list []byte) {
	t.Helper()
	root, err := corpustest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	lint := filepath.Join(root, "node_modules", ".bin", "awesome-lint")
	_, nodeErr := exec.LookPath("node")
	_, lintErr := os.Stat(lint)
	if nodeErr != nil || lintErr != nil {
		if os.Getenv("MASRL_BROWSER") != "" {
			t.Fatalf("awesome-lint needs node and node_modules (npm ci): %v %v", nodeErr, lintErr)
		}
		t.Skip("node or node_modules/.bin/awesome-lint missing (npm ci)")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("remote", "add", "origin", "https://github.com/masrl/awesome-masrl.git")
	git("config", "branch.main.remote", "origin")
	for name, b := range map[string][]byte{"readme.md": list, "contributing.md": []byte("# Contributing\n\nSee masrl add.\n")} {
		if err := os.WriteFile(filepath.Join(repo, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "list")
	cmd := exec.Command(lint)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("awesome-lint: %v\n%s", err, out)
	}
}
