package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masrl/masrl/data"
)

// TestBuildSteps: every step of a build is named; StepTime (masrl build
// --verbose) hears each in order, and a step's error is wrapped with its
// name, so that a failed build says which step failed.
func TestBuildSteps(t *testing.T) {
	dir := corpusFromTxtar(t, "tiny.txtar")
	var got []string
	record := func(step string, took time.Duration) { got = append(got, step) }
	if _, err := Build(openCorpus(t, dir, nil), Options{Out: filepath.Join(t.TempDir(), "out"), StepTime: record}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"prepare", "claims", "entry pages", "search index", "check", "render", "publish"} {
		if !strings.Contains("\n"+strings.Join(got, "\n")+"\n", "\n"+name+"\n") {
			t.Errorf("steps %q lack %q", got, name)
		}
	}
	if got[0] != "prepare" || got[len(got)-1] != "publish" {
		t.Errorf("steps %q: want prepare first and publish last", got)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"trace_id": "t", "events": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got = nil
	_, err := Build(openCorpus(t, dir, nil), Options{TraceExample: bad, StepTime: record})
	if err == nil || !strings.HasPrefix(err.Error(), "traces: ") {
		t.Errorf("Build with an invalid example trace: %v, want an error that begins with its step, \"traces: \"", err)
	}
	if len(got) == 0 || got[len(got)-1] != "traces" {
		t.Errorf("steps %q: want the build to stop at traces", got)
	}
}

// countingFS counts how often each file of an fs.FS is opened.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// TestProseReadOnce: a build reads each of data/pages/*.md once, for its
// navigation title, its page and (about.md) the citation alike.
func TestProseReadOnce(t *testing.T) {
	dfs := &countingFS{FS: data.FS, opened: map[string]int{}}
	if _, err := Build(openCorpus(t, corpusFromTxtar(t, "tiny.txtar"), dfs), Options{}); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for name, n := range dfs.opened {
		if strings.HasPrefix(name, "pages/") && strings.HasSuffix(name, ".md") {
			pages++
			if n != 1 {
				t.Errorf("%s opened %d times, want once", name, n)
			}
		}
	}
	if pages == 0 {
		t.Fatal("no data/pages/*.md opened: the test reads nothing")
	}
}
