package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// TestSpanFilesGoStraightIn runs trace validate, view and stats on the
// framework fixtures' span files (OTLP/JSON lines and framed protobuf,
// and one of them gzip-compressed and as a bare request body): each is
// imported first, validates strictly, views without errors, and has the
// stats of what trace import writes of it. A plain trace is read as
// before.
func TestSpanFilesGoStraightIn(t *testing.T) {
	runs := filepath.Join(otlpFixtures, "frameworks", "runs")
	files := mustGlob(t, filepath.Join(runs, "*.otlp.jsonl"))
	files = append(files, mustGlob(t, filepath.Join(runs, "*.otlp.binpb"))...)
	dir := t.TempDir()
	// The gzip-compressed and the bare-body forms of one run.
	bin, err := os.ReadFile(filepath.Join(runs, "langgraph.otlp.binpb"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bin)
	zw.Close()
	for name, data := range map[string][]byte{"langgraph.binpb.gz": gz.Bytes(), "langgraph.body": firstRecord(bin)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	tio := trace.OSBatchInput()
	run := func(args ...string) (stdout, stderr string, code int) {
		var o, e bytes.Buffer
		code = traceMain(context.Background(), args, &o, &e, tio)
		return o.String(), e.String(), code
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			_, stderr, code := run("validate", "--strict", f)
			if code != exitOK || !strings.Contains(stderr, "was read as OpenTelemetry spans and imported") {
				t.Fatalf("trace validate --strict: exit %d\n%s", code, stderr)
			}
			html := filepath.Join(dir, filepath.Base(f)+".html")
			if _, stderr, code = run("view", "-o", html, f); code != exitOK || !strings.Contains(stderr, ", 0 with errors)") {
				t.Fatalf("trace view: exit %d\n%s", code, stderr)
			}
			// trace import's output: one trace to standard output, or
			// several as JSON Lines.
			out := filepath.Join(dir, filepath.Base(f)+".json")
			imported, stderr, code := run("import", f)
			if code == exitUsage && strings.Contains(stderr, "more than one trace") {
				out += "l"
				imported, stderr, code = run("import", "--jsonl", f)
			}
			if code != exitOK {
				t.Fatalf("trace import: exit %d\n%s", code, stderr)
			}
			if err := os.WriteFile(out, []byte(imported), 0o644); err != nil {
				t.Fatal(err)
			}
			want, stderr, code := run("stats", "--format", "json", out)
			if code != exitOK {
				t.Fatalf("trace stats of the import: exit %d\n%s", code, stderr)
			}
			got, stderr, code := run("stats", "--format", "json", f)
			if code != exitOK || got != want {
				t.Fatalf("trace stats of the spans: exit %d\n%s\ngot:\n%s\nwant (of trace import's output):\n%s", code, stderr, got, want)
			}
		})
	}
	t.Run("plain trace", func(t *testing.T) {
		plain := filepath.Join("..", "..", "trace", "testdata", "example.json")
		for _, args := range [][]string{{"validate", plain}, {"stats", plain}, {"view", "-o", filepath.Join(dir, "plain.html"), plain}} {
			if _, stderr, code := run(args...); code != exitOK || strings.Contains(stderr, "OpenTelemetry") {
				t.Errorf("trace %s: exit %d\n%s", args[0], code, stderr)
			}
		}
	})
}

// firstRecord is the bare request of the first framed record of bin.
func firstRecord(bin []byte) []byte {
	n := binary.BigEndian.Uint32(bin)
	return bin[4 : 4+n]
}
