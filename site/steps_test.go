package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
