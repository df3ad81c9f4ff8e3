// Package otlp turns OpenTelemetry traces into the survey's orchestration
// traces (package trace). It exists because the systems people train and
// run already emit OTel spans (GenAI semantic conventions, the older
// gen_ai.system/gen_ai.prompt.N conventions, OpenInference, Agent
// Lightning's reward spans); reading what they write is cheaper for a user
// than writing traces in our schema by hand.
//
// The input is what the OTel collector's file exporter writes: OTLP/JSON,
// one ExportTraceServiceRequest per line or one whole document, or, with
// `format: proto`, protobuf records (a 4-byte length, then the message),
// which are mapped to the same span records (proto.go, left out of the
// WebAssembly build to keep the protobuf runtime out of it). One OTel
// trace's spans may be spread over many lines, so an Importer groups spans
// by trace id and writes a trace once it is complete (see Options.Window),
// which keeps memory bounded by the traces in flight rather than by the
// file. Prompt, completion and tool-argument text is never read into a
// trace: events point back at their span through content_ref. README.md
// holds the mapping table.
package otlp
