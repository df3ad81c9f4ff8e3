// Package trace holds the survey's orchestration-trace format: the embedded
// JSON Schema (trace.schema.json), a streaming validator that reports every
// finding with its JSON Pointer, line and column, the event graph built
// while validating, and the Table 14 measures computed from that graph
// (Measure, Report). The command line, the WebAssembly module and the
// site's traces page all use it, so a trace is judged the same way in each.
//
// Batches of traces are validated on all cores and reported in input
// order (ValidateBatch), and reported as masrl trace validate prints them
// (ValidateFiles, ReportWriter: text, GitHub workflow commands or JSON)
// and as trace stats prints one trace (Report.WriteText) or a summary
// (Summary.WriteText); the command only chooses the format and where the
// output goes.
package trace

// The fast validator's tables (property bits, required sets, types,
// minimums, enumerations) are generated from trace.schema.json, its one
// source; TestGeneratedIsFresh in internal/gentables fails when they are
// stale.
//go:generate go run ./internal/gentables -schema ../schema/trace.schema.json -out tables_gen.go
