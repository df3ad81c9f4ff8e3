package otlp

import (
	"fmt"
	"strings"
)

// Severity says whether a diagnostic made the importer drop input (an
// error: malformed JSON, a bad id) or only left something out of a trace
// that it still wrote (a warning: a span or link with no counterpart in the
// orchestration trace).
type Severity int

const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Diagnostic is one problem, placed at the input line (and byte column,
// when the JSON reader knows it) and, when it concerns a span, that span's
// and trace's ids.
type Diagnostic struct {
	Severity Severity `json:"-"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col,omitempty"`
	Pointer  string   `json:"pointer,omitempty"` // JSON Pointer inside the request, for reader errors
	TraceID  string   `json:"trace_id,omitempty"`
	SpanID   string   `json:"span_id,omitempty"`
	Message  string   `json:"message"`
}

// String formats d as "file:line:col: severity: span S: message".
func (d Diagnostic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:", d.File, d.Line)
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
