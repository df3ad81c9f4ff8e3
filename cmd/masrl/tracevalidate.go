package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/trace"
)

func traceValidate(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fail := failer(stderr, "trace validate")
	fs := newFlagSet("trace validate", "trace validate [--format text|json|github] [--strict] [--jsonl] [--max-line BYTES] FILE|DIR...", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json", "github"}}
	fs.Var(format, "format", "output `format`: text, json or github (workflow commands)")
	strict := fs.Bool("strict", false, "treat warnings (edges back in time, cycles) as errors")
	jsonl := fs.Bool("jsonl", false, "read every file, standard input included, as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "masrl trace validate: no files (use - for standard input)")
		fs.Usage()
		return exitUsage
	}
	args = files // counted in the summary as named
	sf := &spanFiles{cmd: "trace validate", jsonl: *jsonl, stderr: stderr}
	files, tio, err := sf.rewrite(ctx, files, tio)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	var out validateWriter
	switch format.value {
	case "json":
		out = &validateJSON{w: bw}
	case "github":
		out = &validateGitHub{w: bw}
	default:
		out = &validateText{w: bw}
	}
	errs, warns, ioErrs, traces := sf.errors, 0, 0, 0
	batch := false
	trace.ValidateBatch(ctx, files, trace.BatchOptions{Check: trace.Options{Strict: *strict, FindingsOnly: true}, JSONLines: *jsonl, Limits: limits}, tio.batch(), func(r *trace.BatchResult) {
		batch = batch || r.Line > 0
		if r.Err != nil {
			// Input beyond a limit is a finding about the input (exit
			// 1), as in trace import; an input that cannot be read is
			// not (exit 2).
			if errors.Is(r.Err, trace.ErrLimit) {
				errs++
			} else {
				ioErrs++
			}
			fmt.Fprintf(stderr, "masrl trace validate: %s: %v\n", unitName(r), r.Err)
		} else {
			traces++
			errs += r.Result.Errors
			warns += r.Result.Warnings
		}
		out.add(r)
	})
	err = out.finish()
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if format.value == "text" && errs+warns > 0 {
		if batch {
			fmt.Fprintf(stderr, "%s, %s in %s\n", count(errs, "error"), count(warns, "warning"), count(traces, "trace"))
		} else {
			fmt.Fprintf(stderr, "%s, %s in %s\n", count(errs, "error"), count(warns, "warning"), count(len(args), "file"))
		}
	}
	switch {
	case err != nil:
		return fail(exitUsage, "%v", err)
	case ioErrs > 0:
		return exitUsage
	case errs > 0:
		return exitFindings
	}
	return exitOK
}

// unitName names a trace for messages: the file, and the line of a JSON
// Lines trace.
func unitName(r *trace.BatchResult) string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", displayName(r.File), r.Line)
	}
	return displayName(r.File)
}

// validateWriter writes the results of a batch as they come, in input
// order.
type validateWriter interface {
	add(r *trace.BatchResult)
	finish() error
}

// findingLine formats a finding as the text report prints it:
// "file:line:col: error: /events/3/type: message", with the trace's id
// before the pointer when the trace is a line of a JSON Lines file.
func findingLine(r *trace.BatchResult, f trace.Finding) string {
	line, col := r.Where(f)
	p := f.Pointer
	if p == "" {
		p = "(root)"
	}
	id := ""
	if r.Line > 0 && r.TraceID() != "" {
		id = fmt.Sprintf("trace %q: ", r.TraceID())
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s%s: %s", displayName(r.File), line, col, f.Severity, id, p, f.Message)
}

type validateText struct{ w *bufio.Writer }

func (v *validateText) add(r *trace.BatchResult) {
	if r.Result == nil {
		return
	}
	for _, f := range r.Result.Findings {
		v.w.WriteString(findingLine(r, f))
		v.w.WriteByte('\n')
	}
}

func (v *validateText) finish() error { return nil }

type validateGitHub struct{ w *bufio.Writer }

func (v *validateGitHub) add(r *trace.BatchResult) {
	if r.Result == nil {
		return
	}
	for _, f := range r.Result.Findings {
		p := f.Pointer
		if p == "" {
			p = "(root)"
		}
		if r.Line > 0 && r.TraceID() != "" {
			p = fmt.Sprintf("trace %q: %s", r.TraceID(), p)
		}
		line, col := r.Where(f)
		v.w.WriteString(diag.Annotation{
			Severity: f.Severity, File: displayName(r.File), Line: line, Col: col,
			Title: "trace " + f.Rule, Message: p + ": " + f.Message,
		}.String())
		v.w.WriteByte('\n')
	}
}

func (v *validateGitHub) finish() error { return nil }

// jsonFileReport is one trace of the JSON report: a file, or a line of a
// JSON Lines file.
type jsonFileReport struct {
	File     string          `json:"file"`
	Line     int             `json:"line,omitempty"`
	TraceID  string          `json:"trace_id,omitempty"`
	Valid    bool            `json:"valid"`
	Error    string          `json:"error,omitempty"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Omitted  int             `json:"omitted"`
	Findings []trace.Finding `json:"findings"`
}

// validateJSON collects one report for all traces; it keeps each trace's
// findings (at most Options.MaxFindings), not the traces.
type validateJSON struct {
	w   io.Writer
	rep struct {
		Valid    bool             `json:"valid"`
		Errors   int              `json:"errors"`
		Warnings int              `json:"warnings"`
		Files    []jsonFileReport `json:"files"`
	}
}

func (v *validateJSON) add(r *trace.BatchResult) {
	if v.rep.Files == nil {
		v.rep.Valid, v.rep.Files = true, []jsonFileReport{}
	}
	fr := jsonFileReport{File: displayName(r.File), Line: r.Line, TraceID: r.TraceID(), Findings: []trace.Finding{}}
	if r.Err != nil {
		fr.Error = r.Err.Error()
	} else {
		fr.Valid = r.Result.Valid()
		fr.Errors, fr.Warnings, fr.Omitted = r.Result.Errors, r.Result.Warnings, r.Result.Omitted
		for _, f := range r.Result.Findings {
			f.Line, f.Col = r.Where(f)
			fr.Findings = append(fr.Findings, f)
		}
	}
	v.rep.Valid = v.rep.Valid && fr.Valid
	v.rep.Errors += fr.Errors
	v.rep.Warnings += fr.Warnings
	v.rep.Files = append(v.rep.Files, fr)
}

func (v *validateJSON) finish() error {
	if v.rep.Files == nil {
		v.rep.Valid, v.rep.Files = true, []jsonFileReport{}
	}
	enc := json.NewEncoder(v.w)
	enc.SetIndent("", "  ")
	return enc.Encode(v.rep)
}
