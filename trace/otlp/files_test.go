package otlp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// importFiles runs ImportFiles with the default options and returns what
// it wrote to W and to Log.
func importFiles(t *testing.T, files []string, out Output) (ImportSummary, string, string, error) {
	t.Helper()
	var w, log bytes.Buffer
	out.W, out.Log = &w, &log
	sum, err := ImportFiles(context.Background(), files, trace.OSBatchInput(), Options{Compact: out.JSONLines}, out)
	return sum, w.String(), log.String(), err
}

// TestImportFilesOutputs: the traces of a file go to standard output as
// JSON Lines, or one file each under Dir; a second trace bound for a
// single document stops the import; the summary line ends the log.
func TestImportFilesOutputs(t *testing.T) {
	genai := filepath.Join("testdata", "genai.otlp.jsonl")
	sum, lines, log, err := importFiles(t, []string{genai}, Output{JSONLines: true})
	if err != nil || sum.Traces != 2 || strings.Count(lines, "\n") != 2 {
		t.Fatalf("JSON Lines: %v, %+v, %d lines", err, sum, strings.Count(lines, "\n"))
	}
	if !strings.HasSuffix(log, sum.String()+"\n") || !strings.HasPrefix(sum.String(), "imported 2 traces from ") {
		t.Errorf("log %q does not end in the summary %q", log, sum)
	}
	_, doc, _, err := importFiles(t, []string{genai}, Output{})
	if !errors.Is(err, errManyTraces) || doc != "" {
		t.Errorf("two traces to one document: %v, wrote %d bytes", err, len(doc))
	}
	dir := filepath.Join(t.TempDir(), "new", "out")
	if sum, _, _, err := importFiles(t, []string{genai}, Output{Dir: dir}); err != nil || sum.Traces != 2 {
		t.Fatalf("--out: %v, %+v", err, sum)
	}
	if written, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(written) != 2 {
		t.Errorf("%d files under the directory, want 2", len(written))
	}
}

// TestImportFilesNotOverInput: with Dir, a trace is never written over
// one of the inputs, even when an input lies in Dir under the name a
// trace gets (TRACE_ID.json): the import stops there, with the input
// intact and no temporary file left.
func TestImportFilesNotOverInput(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "genai.otlp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spans := filepath.Join(dir, "spans.jsonl")
	if err := os.WriteFile(spans, in, 0o644); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(dir, "first")
	if _, _, _, err := importFiles(t, []string{spans}, Output{Dir: first}); err != nil {
		t.Fatal(err)
	}
	written, _ := filepath.Glob(filepath.Join(first, "*.json"))
	if len(written) < 2 {
		t.Fatalf("%d traces written, want at least 2 for this test", len(written))
	}
	out := filepath.Join(dir, "out")
	victim := filepath.Join(out, filepath.Base(written[0]))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := importFiles(t, []string{victim}, Output{Dir: out}); err == nil || !strings.Contains(err.Error(), "writing it would destroy the input") {
		t.Errorf("%v; want a refusal", err)
	}
	if b, _ := os.ReadFile(victim); !bytes.Equal(b, in) {
		t.Fatal("the input was overwritten")
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestImportFilesStdinOnce: standard input can be named once.
func TestImportFilesStdinOnce(t *testing.T) {
	in := trace.OSBatchInput()
	in.Stdin = strings.NewReader("")
	var w, log bytes.Buffer
	_, err := ImportFiles(context.Background(), []string{"-", "-"}, in, Options{}, Output{W: &w, Log: &log})
	if err == nil || err.Error() != "standard input can be read only once" {
		t.Errorf("- twice: %v", err)
	}
}

// TestSpanFilesRewrite: a span file among the names is imported and
// read under a name of its own that says so, by the input Rewrite
// returns; a trace file and a missing file are left to the command.
func TestSpanFilesRewrite(t *testing.T) {
	genai := filepath.Join("testdata", "genai.otlp.jsonl")
	plain := filepath.Join("..", "testdata", "example.json")
	missing := filepath.Join(t.TempDir(), "missing.json")
	var log bytes.Buffer
	sf := &SpanFiles{Command: "trace stats", Log: &log}
	names, in, err := sf.Rewrite(context.Background(), []string{genai, plain, missing}, trace.OSBatchInput())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{genai + " (imported).jsonl", plain, missing}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Fatalf("names %q, want %q", names, want)
	}
	if !strings.Contains(log.String(), "masrl trace stats: "+genai+" was read as OpenTelemetry spans and imported, as trace import would: 2 traces from ") || sf.Errors != 0 {
		t.Errorf("log %q, %d errors", log.String(), sf.Errors)
	}
	f, err := in.Open(names[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	b.ReadFrom(f)
	if data, ok := sf.Imported(names[0]); !ok || !bytes.Equal(data, b.Bytes()) || bytes.Count(data, []byte("\n")) != 2 {
		t.Errorf("the imported traces read back as %d bytes, %d lines", b.Len(), bytes.Count(data, []byte("\n")))
	}
}
