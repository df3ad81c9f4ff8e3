package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMeasureAlternating runs two commands that log their name: the runs
// alternate round by round, the warm-up rounds are run but not timed, and
// a command that cannot start is dropped without stopping the other.
func TestMeasureAlternating(t *testing.T) {
	if _, err := os.Stat(gnuTime); err != nil {
		if os.Getenv("MASRL_BROWSER") != "" { // make test: make debian installs it
			t.Fatalf("GNU time is not installed: %v", err)
		}
		t.Skip("GNU time is not installed (make debian installs it)")
	}
	logFile := filepath.Join(t.TempDir(), "log")
	logging := func(name string) job {
		return job{tool: name, size: 1, argv: []string{"sh", "-c", "printf " + name + " >> " + logFile}}
	}
	broken := logging("c")
	broken.argv = []string{filepath.Join(t.TempDir(), "missing")}
	rs := measureAlternating(context.Background(), []job{logging("a"), broken, logging("b")}, 2, 1, time.Minute, io.Discard)
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != "ababab" {
		t.Errorf("runs in the order %q, want ababab", got)
	}
	for _, i := range []int{0, 2} {
		if !rs[i].ok() || len(rs[i].samples) != 2 {
			t.Errorf("%s: %d samples (err %v), want 2", rs[i].tool, len(rs[i].samples), rs[i].err)
		}
	}
	if rs[1].err == nil || !strings.Contains(rs[1].err.Error(), "missing") {
		t.Errorf("the broken command: %v", rs[1].err)
	}
}

// TestParseTimeLine reads GNU time's "%M %U %S" line: the peak memory,
// and user plus system time as the CPU time.
func TestParseTimeLine(t *testing.T) {
	rss, cpu, err := parseTimeLine("123456 1.25 0.50")
	if err != nil || rss != 123456 || cpu != 1750*time.Millisecond {
		t.Errorf("parseTimeLine = %d, %v, %v; want 123456, 1.75s, nil", rss, cpu, err)
	}
	for _, bad := range []string{"123456", "x 1 2", "1 y 2", "1 2 z"} {
		if _, _, err := parseTimeLine(bad); err == nil {
			t.Errorf("parseTimeLine(%q): no error", bad)
		}
	}
}
