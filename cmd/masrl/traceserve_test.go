package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTraceServeFlags holds the command to its usage: arguments, a
// non-positive --idle and a foreign --out are refused with exit 2 before
// anything listens. The server itself is tested in trace/collect.
func TestTraceServeFlags(t *testing.T) {
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `masrl trace serve: unexpected arguments ["extra"]`},
		{[]string{"--idle", "0s"}, "masrl trace serve: --idle must be positive"},
		{[]string{"--out", foreign}, "masrl trace serve: --out " + foreign + " holds files trace serve did not write: name a new or empty directory"},
	} {
		var stderr bytes.Buffer
		if code := traceServe(context.Background(), tc.args, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("trace serve %q: exit %d, %q; want exit %d, %q", tc.args, code, stderr.String(), exitUsage, tc.want)
		}
	}
}

// TestTraceServeRun runs the command on loopback ports it picks (port
// 0), posts a framework's spans to the address it announces, and stops
// it: the trace is written to --out and the command exits 0.
func TestTraceServeRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "traces")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- traceServe(ctx, []string{"--otlp", "127.0.0.1:0", "--addr", "127.0.0.1:0", "--out", out, "--idle", "1h"}, pw)
		pw.Close()
	}()
	lines := bufio.NewReader(pr)
	first, err := lines.ReadString('\n')
	if err != nil {
		t.Fatalf("trace serve said nothing: %v", err)
	}
	m := regexp.MustCompile(`^masrl trace serve: OTLP/HTTP on (http://\S+/v1/traces), traces in (\S+), page on (http://\S+/) \(interrupt to stop\)\n$`).FindStringSubmatch(first)
	if m == nil || m[2] != out {
		t.Fatalf("trace serve said %q", first)
	}
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(lines)
		rest <- string(b)
	}()
	data, err := os.ReadFile(filepath.Join(otlpFixtures, "frameworks", "runs", "langgraph.otlp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		resp, err := http.Post(m[1], "application/json", bytes.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %s", m[1], resp.Status)
		}
	}
	resp, err := http.Get(m[3])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after the interrupt, want 0", code)
	}
	const id = "16a90000000000000000000000000001"
	if log := <-rest; !strings.Contains(log, "masrl trace serve: wrote "+filepath.Join(out, id+".json")) {
		t.Errorf("trace serve did not say it wrote the trace:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(out, id+".json")); err != nil {
		t.Errorf("the trace is not written at the end: %v", err)
	}
}
