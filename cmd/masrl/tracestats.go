package main

import (
	"context"
	"io"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
	"github.com/masrl/masrl/trace/partial"
)

// traceStats is "masrl trace stats": the traces read (partial.ReadBatch)
// and one trace's report, or for a batch the distribution of the measures
// over its valid traces, or with --partial the batch's partial for trace
// merge.
func traceStats(ctx context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput) int {
	fail := failer(stderr, "trace stats")
	fs := newFlagSet("trace stats", "trace stats [--format text|json] [--jsonl] [--max-line BYTES] [--partial] [--findings-jsonl FILE] FILE|DIR...", stderr)
	format := &trace.Format{Value: "text", Choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format`: text or json")
	jsonl := fs.Bool("jsonl", false, "read every file, standard input included, as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line")
	asPartial := fs.Bool("partial", false, "write the partial summary of the traces (schema/partial.schema.json) instead of the report, for masrl trace merge")
	findingsTo := fs.String("findings-jsonl", "", "also write each trace that has findings to `FILE` as one JSON object per line (file, line, trace_id, findings)")
	files, code, ok := parseFiles(fs, args, "no files (use - for standard input)")
	if !ok {
		return code
	}
	sf := &otlp.SpanFiles{Command: "trace stats", JSONLines: *jsonl, Log: stderr}
	files, in, err := sf.Rewrite(ctx, files, in)
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case *asPartial && format.Given:
		return fail(exitUsage, "--partial writes a partial, not a report: leave out --format")
	}
	batch, err := partial.ReadBatch(ctx, files, in, partial.ReadOptions{
		BatchOptions: trace.BatchOptions{JSONLines: *jsonl, Limits: limits},
		FindingsTo:   *findingsTo, Log: stderr, Command: "trace stats",
	})
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	switch {
	case batch.Unreadable > 0:
		return exitUsage
	case *asPartial:
		err = batch.Partial().Write(stdout)
	case batch.Traces() == 0 && sf.Errors > 0:
		return fail(exitFindings, "no traces")
	case batch.Traces() == 0:
		return fail(exitUsage, "no traces")
	default:
		err = batch.WriteReport(stdout, format.Value)
	}
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case sf.Errors == 0 && *asPartial && batch.Invalid() > 0:
		return fail(exitFindings, "%d of %s have errors and are counted in the partial but left out of its measures", batch.Invalid(), diag.Count(batch.Traces(), "trace"))
	case !*asPartial && batch.Invalid() > 0:
		return fail(exitFindings, "%s", batch.Incomplete())
	case sf.Errors > 0:
		return exitFindings
	}
	return exitOK
}
