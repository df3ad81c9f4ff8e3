package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace/collect"
)

// traceServe is "masrl trace serve": an OTLP/HTTP receiver that assembles
// the spans any framework exports into orchestration traces, writes each
// to DIR, and shows them on a page that updates as they arrive. The
// server is trace/collect; this holds its flags.
func traceServe(ctx context.Context, args []string, stderr io.Writer) int {
	fs := newFlagSet("trace serve", "trace serve [--otlp ADDR] [--addr ADDR] [--out DIR] [--idle DURATION]", stderr)
	otlpAddr := fs.String("otlp", "127.0.0.1:4318", "the `address` of the OTLP/HTTP endpoint (POST /v1/traces)")
	addr := fs.String("addr", "127.0.0.1:8318", "the `address` of the page that lists the traces")
	out := fs.String("out", "traces", "write each trace to `DIR`/TRACE_ID.json (a new or empty directory, or one trace serve made)")
	idle := fs.Duration("idle", 2*time.Second, "a trace is written once no span of it arrived for this `duration`")
	files, code, ok := parseFiles(fs, args, "")
	fail := failer(stderr, "trace serve")
	switch {
	case !ok:
		return code
	case len(files) > 0:
		return fail(exitUsage, "unexpected arguments %q", files)
	case *idle <= 0:
		return fail(exitUsage, "--idle must be positive")
	}
	checklist, err := site.TraceChecklist(nil)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	s, err := collect.New(*out, checklist, stderr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	oln, pln, err := collect.Listen(*otlpAddr, *addr)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(stderr, "masrl trace serve: OTLP/HTTP on http://%s/v1/traces, traces in %s, page on http://%s/ (interrupt to stop)\n", oln.Addr(), *out, pln.Addr())
	if err := s.Run(ctx, oln, pln, *idle); err != nil {
		return fail(exitUsage, "%v", err)
	}
	return exitOK
}
