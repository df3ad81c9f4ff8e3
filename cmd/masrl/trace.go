package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/masrl/masrl/trace"
)

// runTrace is the "trace" command: it holds the process to the
// validator's memory (trace.MemoryLimit, trace.GCPercent, for validate
// trace.ValidateGCPercent; GOMEMLIMIT and GOGC in the environment win) and
// dispatches to the subcommands.
func runTrace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	gc := trace.GCPercent
	if len(args) > 0 && args[0] == "validate" {
		gc = trace.ValidateGCPercent
	}
	limitMemory(trace.MemoryLimit, gc)
	return traceMain(ctx, args, stdout, stderr, trace.OSBatchInput())
}

// traceMain is the trace command over in, the files and standard input
// its subcommands read (tests substitute them).
func traceMain(ctx context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput) int {
	const usage = "usage: masrl trace <validate|stats|merge|import|view|serve> [flags] FILE...\n\n" +
		"  validate  check traces against the orchestration-trace schema and the graph rules\n" +
		"  stats     report a trace's reporting checklist (survey Table 14) and graph measures\n" +
		"  merge     combine partials (trace stats --partial) into the report of all their traces\n" +
		"  import    turn OpenTelemetry spans (OTLP) into orchestration traces\n" +
		"  view      write one self-contained HTML file that draws a trace or a JSON Lines batch\n" +
		"  serve     receive OTLP/HTTP spans, write each trace as it completes, show them live\n"
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return traceValidate(ctx, args[1:], stdout, stderr, in)
	case "stats":
		return traceStats(ctx, args[1:], stdout, stderr, in)
	case "merge":
		return traceMerge(ctx, args[1:], stdout, stderr, in)
	case "import":
		return traceImport(ctx, args[1:], stdout, stderr, in, func(n string) string { return n })
	case "view":
		return traceView(ctx, args[1:], stdout, stderr, in)
	case "serve":
		return traceServe(ctx, args[1:], stderr)
	case "-h", "-help", "--help", "help":
		io.WriteString(stderr, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "masrl trace: unknown subcommand %q\n%s", args[0], usage)
	return exitUsage
}

// limitFlags registers on fs the flags that raise the readers' limits
// (trace.Limits) a command meets: "line", "record", "document",
// "decompressed".
func limitFlags(fs *flag.FlagSet, l *trace.Limits, which ...string) {
	for _, f := range l.Flags(which...) {
		fs.Var(f.Value, f.Name, f.Usage)
	}
}
