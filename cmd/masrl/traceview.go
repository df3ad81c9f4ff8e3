package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/collect"
	"github.com/masrl/masrl/trace/otlp"
	"github.com/masrl/masrl/trace/viewer"
)

// traceView is "trace view": one self-contained HTML file that draws the
// traces of FILE (viewer.ViewFile), with the validator's findings and
// measures, to attach to a pull request or a paper's artifact.
func traceView(ctx context.Context, args []string, stdout, stderr io.Writer, in trace.BatchInput) int {
	fail := failer(stderr, "trace view")
	fs := newFlagSet("trace view", "trace view [-o OUT.html] [--serve] [--addr 127.0.0.1:0] [--strict] [--jsonl] [--max-line BYTES] [--max-document BYTES] FILE", stderr)
	out := fs.String("o", "", "write the HTML `file` here (- for standard output); default: FILE's name with .html, in the current directory")
	serve := fs.Bool("serve", false, "serve the file on localhost instead of writing it, until interrupted")
	addr := fs.String("addr", "127.0.0.1:0", "the `address` --serve listens on")
	strict := fs.Bool("strict", false, "report edge-time and cycle warnings as errors")
	jsonl := fs.Bool("jsonl", false, "read FILE as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line", "document")
	files, code, ok := parseFiles(fs, args, "")
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "masrl trace view: want one FILE, got %d\n", len(files))
		fs.Usage()
		return exitUsage
	}
	if *out == "" && !*serve {
		*out = viewer.DefaultOutput(files[0])
	}
	checklist, err := site.TraceChecklist(nil)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	page, err := viewer.ViewFile(ctx, files[0], in, viewer.FileOptions{
		Output: *out, Check: trace.Options{Strict: *strict}, JSONLines: *jsonl, Limits: limits, Checklist: checklist,
		Spans: &otlp.SpanFiles{Command: "trace view", JSONLines: *jsonl, Log: stderr},
	})
	switch {
	case errors.Is(err, viewer.ErrNoTraceImported):
		return exitFindings
	case err != nil:
		return fail(exitUsage, "%v", err)
	case *serve:
		err = collect.ServePage(ctx, *addr, page.HTML, func(a net.Addr) {
			fmt.Fprintf(stderr, "masrl trace view: serving on http://%s/ (interrupt to stop)\n", a)
		})
	default:
		err = page.Save(*out, stdout)
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if !*serve && *out != "-" {
		fmt.Fprintf(stderr, "masrl trace view: wrote %s (%s, %d with errors)\n", *out, diag.Count(page.Traces, "trace"), page.Invalid)
	}
	return exitOK
}
