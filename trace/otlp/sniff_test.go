package otlp

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestIsSpans tells span files from traces and other input by content.
func TestIsSpans(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "frameworks", "runs", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	jsonl, bin := read("langgraph.otlp.jsonl"), read("langgraph.otlp.binpb")
	for _, tc := range []struct {
		name string
		in   []byte
		want bool
	}{
		{"OTLP/JSON lines", jsonl, true},
		{"OTLP/JSON document", []byte("\n  {\n  \"resourceSpans\": []\n}\n"), true},
		{"framed protobuf", bin, true},
		{"bare request", bin[4:], true},
		{"a trace", []byte(`{"trace_id":"t","resourceSpans":[]}`), false},
		{"a JSON array", []byte(`[{"resourceSpans":[]}]`), false},
		{"text", []byte("hello, world\n"), false},
		{"empty", nil, false},
	} {
		if got := IsSpans(bufio.NewReaderSize(bytes.NewReader(tc.in), 1<<20)); got != tc.want {
			t.Errorf("%s: IsSpans = %v, want %v", tc.name, got, tc.want)
		}
	}
}
