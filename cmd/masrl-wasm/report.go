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
)

// browserReport is what masrlValidate returns, as a JSON string: every
// finding and the trace's measures, or an error when the validator itself
// failed.
type browserReport struct {
	Valid    bool            `json:"valid"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Omitted  int             `json:"omitted"`
	Findings []trace.Finding `json:"findings"`
	Stats    *trace.Report   `json:"stats,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// validateJSON validates one trace and renders the report. It is the whole
// behaviour of the WebAssembly module, kept free of syscall/js so that it
// is tested like any other Go code.
func validateJSON(text string, strict bool) string {
	rep := browserReport{Findings: []trace.Finding{}}
	res, err := trace.Validate(strings.NewReader(text), trace.Options{Strict: strict})
	if err != nil {
		rep.Error = err.Error()
	} else {
		rep.Valid, rep.Errors, rep.Warnings, rep.Omitted = res.Valid(), res.Errors, res.Warnings, res.Omitted
		rep.Findings = append(rep.Findings, res.Findings...)
		rep.Stats = &res.Report
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return `{"valid":false,"findings":[],"error":"cannot encode the report"}`
	}
	return string(b)
}
