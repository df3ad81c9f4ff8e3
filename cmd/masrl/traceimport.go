package main

import (
	"context"
	"io"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// traceImport is "masrl trace import": OTLP/JSON or the collector's OTLP
// protobuf records in, one orchestration trace per OTel trace id out
// (otlp.ImportFiles). outDir places --out, "" when not given (tests
// resolve it in the script's directory).
func traceImport(ctx context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput, outDir func(string) string) int {
	fs := newFlagSet("trace import", "trace import [--out DIR | --jsonl] [--format auto|json|proto|body] [--group-by trace|conversation] [--window SPANS] [--task ID] [--max-line|--max-record|--max-document|--max-decompressed BYTES] FILE...", stderr)
	out := fs.String("out", "", "write each trace to `DIR`/TRACE_ID.json (default: the one trace to standard output)")
	jsonl := fs.Bool("jsonl", false, "write every trace to standard output, one per line (JSON Lines)")
	window := fs.Int("window", otlp.DefaultWindow, "`spans` read after a trace's root span before the trace is written (children exported late)")
	task := fs.String("task", "", "task_id of every trace (default: the name of the trace's root span)")
	formatName := fs.String("format", "auto", "input `format`: json (OTLP/JSON), proto (the collector's file exporter with format: proto: "+
		"4-byte big-endian lengths, each followed by an ExportTraceServiceRequest), body (one bare ExportTraceServiceRequest, as OTLP/HTTP posts it), "+
		"or auto: JSON when the first byte that is not blank is '{', body when it is 0x0a, else proto; a gzip or zstd file is decompressed first")
	groupBy := fs.String("group-by", "trace", "one orchestration trace per OTel `trace`, or per conversation (gen_ai.conversation.id or session.id; holds every trace until the input ends)")
	var limits trace.Limits
	limitFlags(fs, &limits, "line", "record", "document", "decompressed")
	files, code, ok := parseFiles(fs, args, "no files (use - for standard input)")
	fail := failer(stderr, "trace import")
	switch {
	case !ok:
		return code
	case *out != "" && *jsonl:
		return fail(exitUsage, "--out and --jsonl exclude each other")
	case *window < 1:
		return fail(exitUsage, "--window must be at least 1")
	case *groupBy != "trace" && *groupBy != "conversation":
		return fail(exitUsage, "--group-by %q: want trace or conversation", *groupBy)
	}
	format, err := otlp.ParseFormat(*formatName)
	if err != nil {
		return fail(exitUsage, "--%v", err)
	}
	opts := otlp.Options{Window: *window, Task: *task, Compact: *jsonl, Format: format, ByConversation: *groupBy == "conversation", Limits: limits}
	sum, err := otlp.ImportFiles(ctx, files, in, opts, otlp.Output{Dir: outDir(*out), JSONLines: *jsonl, W: stdout, Log: stderr})
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case sum.Errors > 0:
		return exitFindings
	case sum.Traces == 0:
		return fail(exitFindings, "no trace imported")
	}
	return exitOK
}
