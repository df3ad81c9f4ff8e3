// Package fixturegen writes the OTLP fixtures of package otlp with the
// OpenTelemetry Go SDK, so that the importer is tested on what a real
// client emits rather than on JSON written by hand. It drives a small
// simulated multi-agent run (an orchestrator spawning two workers that
// chat and call tools, an evaluation, and a second trace with a handoff
// and an Agent Lightning reward span) in one of three attribute dialects,
// exports the spans through the SDK's OTLP exporter with a client that
// writes each batch as one line of JSON, the way the collector's file
// exporter does (hex ids, 64-bit integers as strings), or, with
// WriteProto, as one protobuf record the way the file exporter does with
// `format: proto` (a 4-byte big-endian length, then the message). Both
// forms of a dialect hold the same spans in the same batches.
//
// Every prompt, completion and tool argument carries Secret, so that tests
// can check that none of it reaches an orchestration trace.
//
// The generator (fixturegen.go, sim.go) is built for every platform but
// js/wasm: the otlp tests that run under WebAssembly (make test-wasm)
// import the fixtures this package wrote and need only the names below,
// and without the OTel SDK, protobuf and net/http they compile for
// js/wasm in a fraction of the time. Whether the committed fixtures are
// what the SDK writes is checked by the native tests.
package fixturegen

// Secret is planted in every prompt, completion and tool argument.
const Secret = "SECRET-PROMPT-7f3a9c"

// Dialects are the attribute conventions a fixture can use.
func Dialects() []string { return []string{"genai", "legacy", "openinference"} }
