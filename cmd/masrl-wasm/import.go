package main

import (
	"encoding/json"
	"strings"

	"github.com/masrl/masrl/trace/otlp"
)

// importReport is what masrlImport returns, as a JSON string: the
// orchestration traces imported from OTLP/JSON text, each as the text the
// page then validates, and every diagnostic of the import.
type importReport struct {
	Traces      []importedTrace  `json:"traces"`
	Diagnostics []otlpDiagnostic `json:"diagnostics"`
	Errors      int              `json:"errors"`
	Omitted     int              `json:"omitted"` // traces beyond maxImportedTraces, counted, not listed
	Warnings    int              `json:"warnings"`
	Error       string           `json:"error,omitempty"`
}

type importedTrace struct {
	TraceID string `json:"trace_id"`
	Spans   int    `json:"spans"`
	JSON    string `json:"json"`
}

type otlpDiagnostic struct {
	otlp.Diagnostic
	Severity string `json:"severity"`
}

// maxImportedTraces bounds what one page import holds; the command line
// has no such limit.
const maxImportedTraces = 1000

// importJSON imports OTLP/JSON text (the collector's file exporter
// output). Like validateJSON it is free of syscall/js and tested natively.
// The format is JSON, not told by content: the page passes text, the
// WebAssembly build has no protobuf reader, and text that is not JSON is
// then reported as malformed JSON at a line, as the page shows positions.
func importJSON(text string) string {
	rep := importReport{Traces: []importedTrace{}, Diagnostics: []otlpDiagnostic{}}
	im := otlp.NewImporter(otlp.Options{Workers: 1, Format: otlp.FormatJSON}, func(t *otlp.Trace) error {
		if len(rep.Traces) < maxImportedTraces {
			rep.Traces = append(rep.Traces, importedTrace{TraceID: t.ID, Spans: t.Spans, JSON: string(t.JSON)})
		} else {
			rep.Omitted++
		}
		return nil
	}, func(d otlp.Diagnostic) {
		if d.Severity == otlp.Warning {
			rep.Warnings++
		} else {
			rep.Errors++
		}
		if len(rep.Diagnostics) < 1000 {
			rep.Diagnostics = append(rep.Diagnostics, otlpDiagnostic{d, d.Severity.String()})
		}
	})
	err := im.Read("input", strings.NewReader(text))
	if err == nil {
		err = im.Close()
	}
	if err != nil {
		rep.Error = err.Error()
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return `{"traces":[],"diagnostics":[],"error":"cannot encode the report"}`
	}
	return string(b)
}
