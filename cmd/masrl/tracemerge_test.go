package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceStatsFindingsJSONL: --findings-jsonl writes one line per trace
// with findings beside the partial (the lines are trace.FindingsWriter's,
// tested there), and refuses standard output, which holds the report.
func TestTraceStatsFindingsJSONL(t *testing.T) {
	dir := t.TempDir()
	batch := filepath.Join(dir, "shard.jsonl")
	lines := `{"trace_id":"ok","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"bad","task_id":"k","events":[{"id":"a","t":0,"agent":"x","type":"spwan"}],"edges":[],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
{"trace_id":"dangling","task_id":"k","events":[{"id":"a","t":0,"type":"spawn","agent":"x"}],"edges":[{"src":"a","dst":"z","type":"causal"}],"rewards":{},"costs":{"tokens":1,"wall_clock_s":1}}
`
	if err := os.WriteFile(batch, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "findings.jsonl")
	stdout, _, code := runTraceCmd(t, "", "stats", "--partial", "--findings-jsonl", out, batch)
	if code != exitFindings || !strings.Contains(stdout, `"invalid":2`) {
		t.Fatalf("exit %d, partial %.200s", code, stdout)
	}
	// The lines themselves are trace.TestFindingsWriter's.
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "\n"); got != 2 || !strings.Contains(string(data), `"trace_id":"bad"`) || !strings.Contains(string(data), `"trace_id":"dangling"`) {
		t.Errorf("findings file:\n%s\nwant the lines of traces bad and dangling", data)
	}
	if _, stderr, code := runTraceCmd(t, "", "stats", "--findings-jsonl", "-", batch); code != exitUsage || !strings.Contains(stderr, "name a file") {
		t.Errorf("--findings-jsonl -: exit %d, %s", code, stderr)
	}
}
