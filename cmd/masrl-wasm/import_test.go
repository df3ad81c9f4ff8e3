package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportJSON: the page's import returns every trace of an OTLP file,
// each of which the page's validator accepts, and positioned diagnostics
// for bad input.
func TestImportJSON(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "trace", "otlp", "testdata", "genai.otlp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rep importReport
	if err := json.Unmarshal([]byte(importJSON(string(data))), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Traces) != 2 || rep.Errors != 0 || rep.Warnings != 1 || rep.Error != "" {
		t.Fatalf("got %d traces, %d errors, %d warnings, %q", len(rep.Traces), rep.Errors, rep.Warnings, rep.Error)
	}
	for _, tr := range rep.Traces {
		var v browserReport
		if err := json.Unmarshal([]byte(validateJSON(tr.JSON, true)), &v); err != nil {
			t.Fatal(err)
		}
		if !v.Valid || v.Stats == nil || v.Stats.TraceID != tr.TraceID {
			t.Errorf("trace %s: %+v", tr.TraceID, v)
		}
	}
	if d := rep.Diagnostics[0]; d.Severity != "warning" || d.Line != 3 || d.SpanID == "" {
		t.Errorf("diagnostic %+v", d)
	}

	if err := json.Unmarshal([]byte(importJSON("{\"resourceSpans\":[}\n")), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Traces) != 0 || rep.Errors != 1 || rep.Diagnostics[0].Line != 1 || !strings.Contains(rep.Diagnostics[0].Message, "malformed JSON") {
		t.Errorf("malformed input: %+v", rep)
	}

	// Text that is not JSON is read as JSON all the same (the page has no
	// protobuf reader), and placed at a line, not at a protobuf record.
	rep = importReport{}
	if err := json.Unmarshal([]byte(importJSON("hello\n")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 1 || len(rep.Diagnostics) != 1 || !strings.Contains(rep.Diagnostics[0].Message, "malformed JSON") {
		t.Errorf("text that is not JSON: %+v", rep)
	}
	for _, d := range rep.Diagnostics {
		if d.Line != 1 || d.Record != 0 {
			t.Errorf("diagnostic placed at line %d, record %d, want line 1: %+v", d.Line, d.Record, d)
		}
	}
}
