package otlp

import (
	"fmt"
	"strings"

	"github.com/masrl/masrl/internal/diag"
)

// Error and Warning are the severities of a diagnostic (diag.Severity,
// shared with the corpus check and the trace validator): an error made
// the importer drop input (malformed JSON, a bad id); a warning left
// something out of a trace that it still wrote (a span or link with no
// counterpart in the orchestration trace).
const (
	Error   = diag.Error
	Warning = diag.Warning
)

// Diagnostic is one problem, placed at the input line (and byte column,
// when the JSON reader knows it) of OTLP/JSON, or at the record (and its
// byte offset in the file) of OTLP protobuf, and, when it concerns a span,
// that span's and trace's ids.
type Diagnostic struct {
	Severity diag.Severity `json:"-"`
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Col      int           `json:"col,omitempty"`
	Record   int           `json:"record,omitempty"`  // protobuf input: the record, from 1 (Line is then 0)
	Byte     int64         `json:"byte,omitempty"`    // protobuf input: where the record's length starts
	Pointer  string        `json:"pointer,omitempty"` // JSON Pointer inside the request, for reader errors
	TraceID  string        `json:"trace_id,omitempty"`
	SpanID   string        `json:"span_id,omitempty"`
	Message  string        `json:"message"`
}

// String formats d as "file:line:col: severity: span S: message", or
// "file:record R (byte B): severity: span S: message" for protobuf input.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Record > 0 {
		fmt.Fprintf(&b, "%s:record %d (byte %d):", d.File, d.Record, d.Byte)
	} else {
		fmt.Fprintf(&b, "%s:%d:", d.File, d.Line)
	}
	if d.Col > 0 {
		fmt.Fprintf(&b, "%d:", d.Col)
	}
	fmt.Fprintf(&b, " %s: ", d.Severity)
	if d.SpanID != "" {
		fmt.Fprintf(&b, "span %s: ", d.SpanID)
	} else if d.TraceID != "" {
		fmt.Fprintf(&b, "trace %s: ", d.TraceID)
	}
	if d.Pointer != "" {
		b.WriteString(d.Pointer + ": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// source is one input of an Importer, as diagnostics name it.
type source struct {
	name  string
	proto bool // positions are records and byte offsets, not lines
}

// place fills in d's position from span s: its line, or its record and
// the record's byte offset.
func place(files []source, s *span, d Diagnostic) Diagnostic {
	src := files[s.file]
	d.File = src.name
	if src.proto {
		d.Record, d.Byte = int(s.line), s.off
	} else {
		d.Line = int(s.line)
	}
	return d
}
