package viewer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// TestDefaultOutput: the page is named after the file, in the current
// directory.
func TestDefaultOutput(t *testing.T) {
	for name, want := range map[string]string{
		"runs.jsonl":          "runs.html",
		"dir/run.trace.json":  "run.trace.html",
		"-":                   "stdin.html",
		"export.html":         "export.html",
		"spans.otlp.binpb.gz": "spans.otlp.binpb.html",
	} {
		if got := DefaultOutput(name); got != want {
			t.Errorf("DefaultOutput(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestViewFile: a trace file becomes a page of its trace; a span file is
// imported first and its traces drawn; an output that is the input is
// refused before the input is read, and Save refuses it too; a
// directory is refused.
func TestViewFile(t *testing.T) {
	ex := filepath.Join("..", "testdata", "example.json")
	ctx := context.Background()
	page, err := ViewFile(ctx, ex, trace.OSBatchInput(), FileOptions{})
	if err != nil || page.Traces != 1 || page.Invalid != 0 || !bytes.Contains(page.HTML, []byte("<title>example.json: orchestration trace</title>")) {
		t.Fatalf("example: %v, %+v", err, page)
	}
	var stdout bytes.Buffer
	if err := page.Save("-", &stdout); err != nil || !bytes.Equal(stdout.Bytes(), page.HTML) {
		t.Errorf("Save(-): %v, %d bytes", err, stdout.Len())
	}
	if err := page.Save(ex, nil); err == nil || !strings.Contains(err.Error(), "writing it would destroy the input") {
		t.Errorf("Save over the input: %v", err)
	}
	if _, err := ViewFile(ctx, ex, trace.OSBatchInput(), FileOptions{Output: ex}); err == nil || !strings.Contains(err.Error(), "writing it would destroy the input") {
		t.Errorf("Output is the input: %v", err)
	}
	if _, err := ViewFile(ctx, filepath.Dir(ex), trace.OSBatchInput(), FileOptions{}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}

	spans := filepath.Join("..", "otlp", "testdata", "genai.otlp.jsonl")
	var log bytes.Buffer
	page, err = ViewFile(ctx, spans, trace.OSBatchInput(), FileOptions{Spans: &otlp.SpanFiles{Command: "trace view", Log: &log}})
	if err != nil || page.Traces != 2 || !strings.Contains(log.String(), "was read as OpenTelemetry spans and imported") {
		t.Fatalf("span file: %v, %+v, log %q", err, page, log.String())
	}

	empty := filepath.Join(t.TempDir(), "empty.otlp.jsonl")
	if err := os.WriteFile(empty, []byte(`{"resourceSpans":[]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if _, err := ViewFile(ctx, empty, trace.OSBatchInput(), FileOptions{Spans: &otlp.SpanFiles{Command: "trace view", Log: &log}}); !errors.Is(err, ErrNoTraceImported) || !strings.Contains(log.String(), "no trace imported") {
		t.Errorf("span file without traces: %v, log %q", err, log.String())
	}
}
