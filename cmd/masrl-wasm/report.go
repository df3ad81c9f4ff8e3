// Command masrl-wasm is the trace validator compiled to WebAssembly for the
// site's traces page: it defines globalThis.masrlValidate(text, options),
// globalThis.masrlImport(otlpText) (OpenTelemetry spans to orchestration
// traces, package trace/otlp) and globalThis.masrlSchema(). Build it with
//
//	GOOS=js GOARCH=wasm go build -o bin/masrl.wasm ./cmd/masrl-wasm
//
// (make wasm). The page-side code is trace/validator/validator.js.
package main

import (
	"encoding/json"
	"strings"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/viewer"
)

// browserReport is what masrlValidate returns, as a JSON string: every
// finding and the trace's measures, or an error when the validator itself
// failed. The trace viewer reads the same report, in the page and in the
// file masrl trace view writes, so the shape is defined there.
type browserReport = viewer.Report

// validateJSON validates one trace and renders the report. It is the whole
// behaviour of the WebAssembly module, kept free of syscall/js so that it
// is tested like any other Go code.
func validateJSON(text string, strict bool) string {
	rep := viewer.NewReport(trace.Validate(strings.NewReader(text), trace.Options{Strict: strict}))
	b, err := json.Marshal(rep)
	if err != nil {
		return `{"valid":false,"findings":[],"error":"cannot encode the report"}`
	}
	return string(b)
}
