package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/masrl/masrl/internal/synth"
)

// runTrace writes a synthetic trace to stdout.
func runTrace(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	events := fs.Int("events", 1000, "number of events")
	seed := fs.Uint64("seed", 1, "random seed; the same seed and size give the same bytes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "synth trace: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := synth.WriteTrace(stdout, synth.TraceOptions{Events: *events, Seed: *seed}); err != nil {
		fmt.Fprintln(stderr, "synth trace:", err)
		return 2
	}
	return 0
}

// runTraces writes synthetic traces as JSON Lines to stdout: the batch
// that masrl trace validate and Ajv are timed on (bench/trace).
func runTraces(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("traces", flag.ContinueOnError)
	fs.SetOutput(stderr)
	traces := fs.Int("traces", 10000, "number of traces (lines)")
	events := fs.Int("events", 100, "mean events per trace (sizes vary from a fifth to 1.8 times it)")
	seed := fs.Uint64("seed", 1, "random seed; the same options give the same bytes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "synth traces: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := synth.WriteTraceLines(stdout, synth.TraceLinesOptions{Traces: *traces, Events: *events, Seed: *seed}); err != nil {
		fmt.Fprintln(stderr, "synth traces:", err)
		return 2
	}
	return 0
}
