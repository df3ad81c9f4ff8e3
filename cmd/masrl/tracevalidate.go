package main

import (
	"context"
	"fmt"
	"io"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// traceValidate is "masrl trace validate": every trace of the files
// checked, its findings written in the format asked for
// (trace.ValidateFiles), and a summary line.
func traceValidate(ctx context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput) int {
	fail := failer(stderr, "trace validate")
	fs := newFlagSet("trace validate", "trace validate [--format text|json|github] [--strict] [--jsonl] [--max-line BYTES] FILE|DIR...", stderr)
	format := &trace.Format{Value: "text", Choices: trace.ReportFormats()}
	fs.Var(format, "format", "output `format`: text, json or github (workflow commands)")
	strict := fs.Bool("strict", false, "treat warnings (edges back in time, cycles) as errors")
	jsonl := fs.Bool("jsonl", false, "read every file, standard input included, as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line")
	named, code, ok := parseFiles(fs, args, "no files (use - for standard input)")
	if !ok {
		return code
	}
	sf := &otlp.SpanFiles{Command: "trace validate", JSONLines: *jsonl, Log: stderr}
	files, in, err := sf.Rewrite(ctx, named, in)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	tally, err := trace.ValidateFiles(ctx, files, in, trace.ValidateOptions{
		BatchOptions: trace.BatchOptions{Check: trace.Options{Strict: *strict, FindingsOnly: true}, JSONLines: *jsonl, Limits: limits},
		Format:       format.Value, Out: stdout, Log: stderr, Command: "trace validate",
	})
	tally.Errors += sf.Errors
	if format.Value == "text" && tally.Errors+tally.Warnings > 0 {
		fmt.Fprintln(stderr, tally.Summary(len(named)))
	}
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case tally.Unreadable > 0:
		return exitUsage
	case tally.Errors > 0:
		return exitFindings
	}
	return exitOK
}
