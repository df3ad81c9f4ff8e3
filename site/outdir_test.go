package site

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/masrl/masrl/corpus/siteconfig"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/site/outdir"
)

// mustBuild builds dir into out, with a base URL so that the feed and the
// sitemap are written too.
func mustBuild(t *testing.T, dir, out string) {
	t.Helper()
	if _, err := Build(openCorpus(t, dir, nil), Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}, Out: out}); err != nil {
		t.Fatal(err)
	}
}

// freshTree builds dir into a new directory and reads it back.
func freshTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fresh")
	mustBuild(t, dir, out)
	return corpustest.ReadTree(t, out)
}

// sameTree reports how got differs from want.
func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for name, b := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: %s missing", what, name)
		} else if g != b {
			t.Errorf("%s: %s differs from a fresh build", what, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: %s left over", what, name)
		}
	}
}

// TestRebuildReusesBuffer builds three times into one output: each build
// equals a build into an empty directory, the previous site becomes the
// buffer, and the third build keeps the first one's files, whose bytes
// it would write, rather than creating new ones.
func TestRebuildReusesBuffer(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	want := freshTree(t, dir)
	out := filepath.Join(t.TempDir(), "public")
	mustBuild(t, dir, out)
	first, err := os.Stat(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	mustBuild(t, dir, out)
	sameTree(t, "second build", corpustest.ReadTree(t, out), want)
	sameTree(t, "buffer after the second build", corpustest.ReadTree(t, outdir.BufferDir(out)), want)
	mustBuild(t, dir, out)
	sameTree(t, "third build", corpustest.ReadTree(t, out), want)
	third, err := os.Stat(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(first, third) {
		t.Error("the third build created index.html anew instead of rewriting the first build's file")
	}
}

// TestRebuildRemovesStale drops an entry and checks that its page goes
// from the output and from the buffer the next build reuses.
func TestRebuildRemovesStale(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	out := filepath.Join(t.TempDir(), "public")
	mustBuild(t, dir, out)
	mustBuild(t, dir, out)
	if _, err := os.Stat(filepath.Join(out, "papers", "alpha", "index.html")); err != nil {
		t.Fatal(err)
	}
	papers := filepath.Join(dir, "papers.csv")
	b, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if !strings.HasPrefix(line, "alpha,") {
			kept = append(kept, line)
		}
	}
	if len(kept) == len(strings.Split(string(b), "\n")) {
		t.Fatal("the fixture has no entry alpha")
	}
	if err := os.WriteFile(papers, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "spotcheck.csv")) // it names alpha
	want := freshTree(t, dir)
	for range 2 { // into the buffer of the first build, then of the second
		mustBuild(t, dir, out)
		sameTree(t, "without alpha", corpustest.ReadTree(t, out), want)
	}
	if _, err := os.Stat(filepath.Join(out, "papers", "alpha")); !os.IsNotExist(err) {
		t.Errorf("papers/alpha/ is left: %v", err)
	}
}

// TestRebuildStrayFiles leaves in the output what a user or a crash might:
// a stray file, a directory where the site writes a file, a file where it
// writes a directory, and a symbolic link into another directory. The
// builds that reuse the output as their buffer produce exactly a fresh
// site and write nothing through the link.
func TestRebuildStrayFiles(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	want := freshTree(t, dir)
	outside := t.TempDir()
	out := filepath.Join(t.TempDir(), "public")
	mustBuild(t, dir, out)
	mustBuild(t, dir, out)
	for _, f := range []func() error{
		func() error { return os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644) },
		func() error { return os.Remove(filepath.Join(out, "feed.xml")) },
		func() error { return os.Mkdir(filepath.Join(out, "feed.xml"), 0o755) },
		func() error { return os.WriteFile(filepath.Join(out, "feed.xml", "x"), nil, 0o644) },
		func() error { return os.RemoveAll(filepath.Join(out, "claims")) },
		func() error { return os.WriteFile(filepath.Join(out, "claims"), []byte("a file"), 0o644) },
		func() error { return os.RemoveAll(filepath.Join(out, "papers")) },
		func() error { return os.Symlink(outside, filepath.Join(out, "papers")) },
	} {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		mustBuild(t, dir, out)
		sameTree(t, "build "+string(rune('1'+i))+" after the stray files", corpustest.ReadTree(t, out), want)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("a build wrote through the link: %d entries in its target", len(entries))
	}
}

// TestConcurrentBuilds runs two builds into one output at once, as masrl
// serve and make site may: they take turns, and the result is a whole site.
func TestConcurrentBuilds(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	want := freshTree(t, dir)
	out := filepath.Join(t.TempDir(), "public")
	mustBuild(t, dir, out)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = Build(openCorpus(t, dir, nil), Options{Config: siteconfig.Config{BaseURL: "https://example.org/"}, Out: out})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	sameTree(t, "after concurrent builds", corpustest.ReadTree(t, out), want)
	sameTree(t, "their buffer", corpustest.ReadTree(t, outdir.BufferDir(out)), want)
}
