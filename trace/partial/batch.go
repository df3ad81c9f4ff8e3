package partial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/trace"
)

// This file is the report of trace stats and trace merge: the running
// summary of a batch (Batch), the partials read back and merged
// (MergeFiles), and the report both commands print of them, so that the
// report of a batch and the report of its merged shards are one code
// path.

// Batch is what trace stats makes of a batch, one trace at a time: every
// trace's report in a partial (a trace with errors only counted), and the
// first trace, whose own report is printed when the batch holds no other.
type Batch struct {
	all    *Partial
	first  *trace.BatchResult
	traces int
	// Unreadable counts the inputs that could not be read (ReadBatch):
	// a partial that silently lacks a file's traces would merge as if
	// it were whole.
	Unreadable int
}

// NewBatch returns an empty batch with the default parameters.
func NewBatch() *Batch { return &Batch{all: New()} }

// Add adds one trace that was read (r.Err is nil).
func (b *Batch) Add(r *trace.BatchResult) {
	b.traces++
	if b.traces == 1 {
		b.first = r
	}
	if r.Result.Valid() {
		b.all.Add(&r.Result.Report)
	} else {
		b.all.AddInvalid()
	}
}

// ReadOptions say how ReadBatch reads a batch and where it says what it
// found.
type ReadOptions struct {
	trace.BatchOptions
	// FindingsTo, when set, is the file that receives each trace with
	// findings as a line of JSON (trace.FindingsWriter); not "-", since
	// standard output holds the report.
	FindingsTo string
	// Log receives each finding as a text line (BatchResult.FindingLine)
	// and each input that could not be read, "masrl COMMAND: NAME:
	// error", Command being "trace stats".
	Log     io.Writer
	Command string
}

// ReadBatch is the batch of trace stats: every trace of names checked on
// all cores (trace.ValidateBatch) and added in input order. Its findings
// are said as they come, so that standard output stays the report. The
// error is a findings file that could not be written.
func ReadBatch(ctx context.Context, names []string, in trace.BatchInput, opts ReadOptions) (*Batch, error) {
	b := NewBatch()
	var findings *trace.FindingsWriter
	switch opts.FindingsTo {
	case "":
	case "-":
		return nil, errors.New("--findings-jsonl -: standard output holds the report or the partial; name a file")
	default:
		var err error
		if findings, err = trace.CreateFindings(opts.FindingsTo); err != nil {
			return nil, fmt.Errorf("--findings-jsonl: %w", err)
		}
	}
	trace.ValidateBatch(ctx, names, opts.BatchOptions, in, func(r *trace.BatchResult) {
		if findings != nil {
			findings.Add(r)
		}
		if r.Err != nil {
			b.Unreadable++
			fmt.Fprintf(opts.Log, "masrl %s: %s: %v\n", opts.Command, r.Name(), r.Err)
			return
		}
		for _, f := range r.Result.Findings {
			fmt.Fprintln(opts.Log, r.FindingLine(f))
		}
		b.Add(r)
	})
	if findings != nil {
		if err := findings.Close(); err != nil {
			return nil, fmt.Errorf("--findings-jsonl %s: %w", opts.FindingsTo, err)
		}
	}
	return b, nil
}

// Traces is the number of traces added, with errors or not.
func (b *Batch) Traces() int { return b.traces }

// Invalid is the number of traces added that have errors.
func (b *Batch) Invalid() int { return b.all.Invalid() }

// Partial is the partial of every trace added, for trace merge.
func (b *Batch) Partial() *Partial { return b.all }

// WriteReport writes the report in format ("text" or "json"): one
// trace's own report (Table 14 and the graph), or, for more, the
// distribution of the measures over the valid traces (Partial.WriteReport).
func (b *Batch) WriteReport(w io.Writer, format string) error {
	switch {
	case b.traces != 1:
		return b.all.WriteReport(w, format)
	case format == "json":
		return trace.WriteJSON(w, b.first.Result.Report)
	}
	return b.first.Result.Report.WriteText(w)
}

// Incomplete says why the report of a batch with errors may not hold
// every trace's figures: the one trace has errors, or some are left out.
func (b *Batch) Incomplete() string {
	if b.traces == 1 {
		return fmt.Sprintf("%s has %s; the figures above may be incomplete", b.first.Name(), diag.Count(b.first.Result.Errors, "error"))
	}
	return b.all.LeftOut()
}

// summaryReport is the JSON report of a batch.
type summaryReport struct {
	// Invalid counts the traces with errors, left out of the summary.
	Invalid int `json:"invalid"`
	trace.Summary
}

// WriteReport writes the report of p's traces in format ("text" or
// "json"): the distribution of each measure over the valid traces, then
// by topology, and how many traces with errors were left out.
func (p *Partial) WriteReport(w io.Writer, format string) error {
	if format == "json" {
		return trace.WriteJSON(w, summaryReport{Invalid: p.Invalid(), Summary: p.Summary()})
	}
	return p.Summary().WriteText(w, p.Invalid())
}

// LeftOut says how many of p's traces have errors and are left out of
// its report.
func (p *Partial) LeftOut() string {
	return fmt.Sprintf("%d of %s have errors and are left out of the figures above", p.Invalid(), diag.Count(p.Traces()+p.Invalid(), "trace"))
}

// Write writes p as one JSON document and a newline, as trace stats
// --partial and trace merge --partial print it.
func (p *Partial) Write(w io.Writer) error {
	b, err := p.MarshalJSON()
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n", b)
	}
	return err
}

// MergeFiles reads the partials of names ("-" is standard input; a
// directory stands for the .json files below it, in lexical order) and
// merges them. Every partial is read and checked, and every refusal
// returned, each naming its file and the line and column or the JSON
// Pointer at fault: a bad shard is named, never silently left out of the
// figures. The partial is nil when there are errors.
func MergeFiles(names []string, in trace.BatchInput) (*Partial, []error) {
	files, err := partialFiles(names, in)
	if err != nil {
		return nil, []error{err}
	}
	var total *Partial
	var errs []error
	first := ""
	for _, name := range files {
		p, err := readFile(name, in)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if total == nil {
			total, first = p, name
			continue
		}
		if err := total.Merge(p); err != nil {
			errs = append(errs, fmt.Errorf("%s: /sketch: %v (%s's); partials merge only with the same sketch parameters", trace.DisplayName(name), err, trace.DisplayName(first)))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return total, nil
}

// partialFiles expands the arguments: a directory stands for the .json
// files below it, in lexical order.
func partialFiles(args []string, in trace.BatchInput) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		files, isDir, err := in.Dir(a)
		if err != nil {
			return nil, err
		}
		if !isDir {
			out = append(out, a)
			continue
		}
		n := len(out)
		for _, f := range files {
			if strings.HasSuffix(strings.ToLower(f), ".json") {
				out = append(out, f)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no .json files below it", a)
		}
	}
	return out, nil
}

// readFile reads one partial; its errors start with the file's name,
// then the line and column or the JSON Pointer at fault.
func readFile(name string, in trace.BatchInput) (*Partial, error) {
	r := in.Stdin
	if name != "-" {
		f, err := in.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	p, err := Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", trace.DisplayName(name), prefixColon(err))
	}
	return p, nil
}

// prefixColon makes "FILE:" + err read "FILE:1:2: ..." for a positioned
// error and "FILE: /ptr: ..." otherwise.
func prefixColon(err error) error {
	var pe *Error
	if errors.As(err, &pe) && pe.Line > 0 {
		return err
	}
	return fmt.Errorf(" %w", err)
}
