package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// importIO is where trace import reads and writes: the trace command's
// inputs, and a function that places output paths (tests resolve them in
// the script's directory).
type importIO struct {
	traceIO
	path func(name string) string
}

// errManyTraces stops an import to standard output that meets a second
// trace: two traces in one JSON document would not be a trace.
var errManyTraces = errors.New("the input holds more than one trace: use --out DIR or --jsonl")

// traceImport is "masrl trace import": OTLP/JSON or the collector's OTLP
// protobuf records in, one orchestration trace per OTel trace id out.
func traceImport(ctx context.Context, args []string, stdout, stderr io.Writer, iio importIO) int {
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
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(files) == 0:
		fmt.Fprintln(stderr, "masrl trace import: no files (use - for standard input)")
		fs.Usage()
		return exitUsage
	case *out != "" && *jsonl:
		fmt.Fprintln(stderr, "masrl trace import: --out and --jsonl exclude each other")
		return exitUsage
	case *window < 1:
		fmt.Fprintln(stderr, "masrl trace import: --window must be at least 1")
		return exitUsage
	case *groupBy != "trace" && *groupBy != "conversation":
		fmt.Fprintf(stderr, "masrl trace import: --group-by %q: want trace or conversation\n", *groupBy)
		return exitUsage
	}
	format, err := otlp.ParseFormat(*formatName)
	if err != nil {
		fmt.Fprintf(stderr, "masrl trace import: --%v\n", err)
		return exitUsage
	}
	if *out != "" {
		if err := os.MkdirAll(iio.path(*out), 0o755); err != nil {
			fmt.Fprintf(stderr, "masrl trace import: %v\n", err)
			return exitUsage
		}
	}
	// The inputs, which no trace written to DIR may replace.
	var inputs []inputFile
	for _, name := range files {
		if name == "-" {
			if in, ok := statInput(name, iio.stdin); ok {
				inputs = append(inputs, in)
			}
			continue
		}
		if f, err := iio.open(name); err == nil {
			if in, ok := statInput(name, f); ok {
				inputs = append(inputs, in)
			}
			f.Close()
		}
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var held *otlp.Trace // the one trace bound for standard output
	traces, spans, warnings := 0, 0, 0
	emit := func(t *otlp.Trace) error {
		traces++
		spans += t.Spans
		switch {
		case *out != "":
			// The id is 32 hex digits (checked again here), so the name
			// cannot leave DIR.
			if err := otlp.ParseTraceID(t.ID); err != nil {
				return fmt.Errorf("trace id %q: %w", t.ID, err)
			}
			return writeOutput(filepath.Join(iio.path(*out), t.ID+".json"), t.JSON, inputs)
		case *jsonl:
			_, err := w.Write(t.JSON)
			return err
		case held != nil:
			return fmt.Errorf("%w (traces %s and %s)", errManyTraces, held.ID, t.ID)
		}
		held = t
		return nil
	}
	dw := bufio.NewWriter(stderr)
	report := func(d otlp.Diagnostic) {
		if d.Severity == otlp.Warning {
			warnings++
		}
		dw.WriteString(d.String() + "\n")
	}
	im := otlp.NewImporter(otlp.Options{Window: *window, Task: *task, Compact: *jsonl, Format: format, ByConversation: *groupBy == "conversation", Limits: limits}, emit, report)
	var failed error
	stdinUsed := false
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			failed = err
			break
		}
		if err := importOne(ctx, im, name, iio, &stdinUsed); err != nil {
			failed = err
			break
		}
	}
	if failed == nil {
		failed = im.Close()
	}
	if failed == nil && held != nil {
		_, failed = w.Write(held.JSON)
	}
	if err := w.Flush(); failed == nil {
		failed = err
	}
	fmt.Fprintf(dw, "imported %s from %s; %s, %s\n", count(traces, "trace"), count(spans, "span"), count(im.Errors(), "error"), count(warnings, "warning"))
	dw.Flush()
	switch {
	case failed != nil:
		fmt.Fprintf(stderr, "masrl trace import: %v\n", failed)
		return exitUsage
	case im.Errors() > 0:
		return exitFindings
	case traces == 0:
		fmt.Fprintln(stderr, "masrl trace import: no trace imported")
		return exitFindings
	}
	return exitOK
}

func importOne(ctx context.Context, im *otlp.Importer, name string, iio importIO, stdinUsed *bool) error {
	if name == "-" {
		if *stdinUsed {
			return errors.New("standard input can be read only once")
		}
		*stdinUsed = true
		return im.Read("<stdin>", trace.ContextReader(ctx, iio.stdin))
	}
	f, err := iio.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := im.Read(name, trace.ContextReader(ctx, f)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
