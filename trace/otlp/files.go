package otlp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/masrl/masrl/internal/atomicfile"
	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/trace"
)

// Output says where ImportFiles writes the traces: to Dir, one file each,
// or to W, as JSON Lines or as the one trace of the input.
type Output struct {
	// Dir, when set, receives each trace as Dir/TRACE_ID.json; it is
	// created if missing, and no trace is written over an input.
	Dir string
	// JSONLines writes every trace to W, one per line (Options.Compact
	// should be set too).
	JSONLines bool
	// W receives the traces when Dir is empty: the input's one trace, or
	// with JSONLines each trace as a line.
	W io.Writer
	// Log receives the diagnostics, in input order, and the summary line.
	Log io.Writer
}

// ImportSummary counts what ImportFiles imported.
type ImportSummary struct {
	Traces, Spans, Errors, Warnings int
}

// String is the summary line trace import prints: "imported 2 traces
// from 14 spans; 0 errors, 1 warning".
func (s ImportSummary) String() string {
	return fmt.Sprintf("imported %s from %s; %s, %s", diag.Count(s.Traces, "trace"), diag.Count(s.Spans, "span"), diag.Count(s.Errors, "error"), diag.Count(s.Warnings, "warning"))
}

// errManyTraces stops an import to W that meets a second trace: two
// traces in one JSON document would not be a trace.
var errManyTraces = errors.New("the input holds more than one trace: use --out DIR or --jsonl")

// ImportFiles is trace import: it reads the spans of files ("-" is
// in.Stdin, which can be read only once) with an Importer of opts and
// writes the traces to out, the diagnostics and then the summary line
// (ImportSummary.String) to out.Log. The error is why the import stopped
// (an input that cannot be read, a trace that cannot be written); the
// summary's Errors are findings about the input.
func ImportFiles(ctx context.Context, files []string, in trace.BatchInput, opts Options, out Output) (ImportSummary, error) {
	var sum ImportSummary
	if out.Dir != "" {
		if err := os.MkdirAll(out.Dir, 0o755); err != nil {
			return sum, err
		}
	}
	// The inputs, which no trace written to Dir may replace.
	var inputs atomicfile.Inputs
	for _, name := range files {
		if name == "-" {
			inputs.Add(trace.DisplayName(name), in.Stdin)
		} else if f, err := in.Open(name); err == nil {
			inputs.Add(name, f)
			f.Close()
		}
	}
	w := bufio.NewWriterSize(out.W, 1<<16)
	var held *Trace // the one trace bound for W
	emit := func(t *Trace) error {
		sum.Traces++
		sum.Spans += t.Spans
		switch {
		case out.Dir != "":
			// The id is 32 hex digits (checked again here), so the name
			// cannot leave Dir.
			if err := ParseTraceID(t.ID); err != nil {
				return fmt.Errorf("trace id %q: %w", t.ID, err)
			}
			return inputs.Write(filepath.Join(out.Dir, t.ID+".json"), t.JSON)
		case out.JSONLines:
			_, err := w.Write(t.JSON)
			return err
		case held != nil:
			return fmt.Errorf("%w (traces %s and %s)", errManyTraces, held.ID, t.ID)
		}
		held = t
		return nil
	}
	log := bufio.NewWriter(out.Log)
	report := func(d Diagnostic) {
		if d.Severity == Warning {
			sum.Warnings++
		}
		log.WriteString(d.String() + "\n")
	}
	im := NewImporter(opts, emit, report)
	var failed error
	stdinUsed := false
	for _, name := range files {
		if failed = ctx.Err(); failed != nil {
			break
		}
		if failed = importFile(ctx, im, name, in, &stdinUsed); failed != nil {
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
	sum.Errors = im.Errors()
	fmt.Fprintln(log, sum)
	log.Flush()
	return sum, failed
}

// importFile reads one input into im; its errors name the file.
func importFile(ctx context.Context, im *Importer, name string, in trace.BatchInput, stdinUsed *bool) error {
	if name == "-" {
		if *stdinUsed {
			return errors.New("standard input can be read only once")
		}
		*stdinUsed = true
		return im.Read("<stdin>", trace.ContextReader(ctx, in.Stdin))
	}
	f, err := in.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := im.Read(name, trace.ContextReader(ctx, f)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
