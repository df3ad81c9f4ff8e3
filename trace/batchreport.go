package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/masrl/masrl/internal/diag"
)

// This file is the report of a batch as masrl trace validate and stats
// print it: each trace's findings as text lines, GitHub workflow commands
// or one JSON document, the JSON Lines of the traces with findings, and
// the counts of the summary line. The commands only choose the format and
// the output.

// DisplayName is how messages name an input: "<stdin>" for "-", the name
// as given otherwise.
func DisplayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// Name names the trace for messages: its file, with the line of a JSON
// Lines trace ("runs.jsonl:3").
func (r *BatchResult) Name() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", DisplayName(r.File), r.Line)
	}
	return DisplayName(r.File)
}

// pointerText is a finding's pointer as the text reports print it, with
// the trace's id before it when the trace is a line of a JSON Lines file
// (a line number alone would not say which run it is).
func (r *BatchResult) pointerText(f Finding) string {
	p := f.Pointer
	if p == "" {
		p = "(root)"
	}
	if r.Line > 0 && r.TraceID() != "" {
		p = fmt.Sprintf("trace %q: %s", r.TraceID(), p)
	}
	return p
}

// FindingLine formats a finding of r as the text report prints it:
// "file:line:col: error: /events/3/type: message", with the trace's id
// before the pointer when the trace is a line of a JSON Lines file.
func (r *BatchResult) FindingLine(f Finding) string {
	line, col := r.Where(f)
	return fmt.Sprintf("%s:%d:%d: %s: %s: %s", DisplayName(r.File), line, col, f.Severity, r.pointerText(f), f.Message)
}

// TraceReport is one trace of a JSON report: a file, or a line of a JSON
// Lines file, with its findings placed in the file.
type TraceReport struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	TraceID string `json:"trace_id,omitempty"`
	Valid   bool   `json:"valid"`
	// Error is why the input could not be read; the trace has no
	// findings then.
	Error    string    `json:"error,omitempty"`
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Omitted  int       `json:"omitted"`
	Findings []Finding `json:"findings"`
}

// TraceReport returns r as one trace of a JSON report: each finding's
// line and column are those of the file, not of the JSON Lines line.
func (r *BatchResult) TraceReport() TraceReport {
	tr := TraceReport{File: DisplayName(r.File), Line: r.Line, TraceID: r.TraceID(), Findings: []Finding{}}
	if r.Err != nil {
		tr.Error = r.Err.Error()
		return tr
	}
	tr.Valid = r.Result.Valid()
	tr.Errors, tr.Warnings, tr.Omitted = r.Result.Errors, r.Result.Warnings, r.Result.Omitted
	for _, f := range r.Result.Findings {
		f.Line, f.Col = r.Where(f)
		tr.Findings = append(tr.Findings, f)
	}
	return tr
}

// ReportFormats are the formats of NewReportWriter, the first the
// default.
func ReportFormats() []string { return []string{"text", "json", "github"} }

// Format is the --format value of a trace command (a flag.Value):
// Value, one of Choices (ReportFormats for trace validate, text and
// json for a summary), and Given, whether the flag was set, since
// --partial refuses any.
type Format struct {
	Value   string
	Choices []string
	Given   bool
}

func (f *Format) String() string { return f.Value }

// Set takes s when it is one of Choices, else says which would be right.
func (f *Format) Set(s string) error {
	if slices.Contains(f.Choices, s) {
		f.Value, f.Given = s, true
		return nil
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.Choices, ", "))
}

// ReportWriter writes the findings of a batch as they come, in input
// order: text (FindingLine, one per line), github (one workflow command
// per finding) or json (one document of every trace, written by Finish;
// it keeps each trace's findings, at most Options.MaxFindings, not the
// traces).
type ReportWriter struct {
	w      *bufio.Writer
	format string
	json   struct {
		Valid    bool          `json:"valid"`
		Errors   int           `json:"errors"`
		Warnings int           `json:"warnings"`
		Files    []TraceReport `json:"files"`
	}
}

// NewReportWriter returns a writer of format (one of ReportFormats) to w.
func NewReportWriter(w io.Writer, format string) *ReportWriter {
	rw := &ReportWriter{w: bufio.NewWriterSize(w, 64<<10), format: format}
	rw.json.Valid, rw.json.Files = true, []TraceReport{}
	return rw
}

// Add writes, or keeps, the findings of one trace.
func (rw *ReportWriter) Add(r *BatchResult) {
	switch rw.format {
	case "json":
		tr := r.TraceReport()
		rw.json.Valid = rw.json.Valid && tr.Valid
		rw.json.Errors += tr.Errors
		rw.json.Warnings += tr.Warnings
		rw.json.Files = append(rw.json.Files, tr)
		return
	}
	if r.Result == nil {
		return
	}
	for _, f := range r.Result.Findings {
		if rw.format == "github" {
			line, col := r.Where(f)
			rw.w.WriteString(diag.Annotation{
				Severity: f.Severity, File: DisplayName(r.File), Line: line, Col: col,
				Title: "trace " + f.Rule, Message: r.pointerText(f) + ": " + f.Message,
			}.String())
		} else {
			rw.w.WriteString(r.FindingLine(f))
		}
		rw.w.WriteByte('\n')
	}
}

// Finish writes the JSON report, if that is the format, and flushes.
func (rw *ReportWriter) Finish() error {
	var err error
	if rw.format == "json" {
		err = WriteJSON(rw.w, rw.json)
	}
	if ferr := rw.w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// WriteJSON writes v as the JSON reports of the trace commands are
// written: indented by two spaces, with a final newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ValidateOptions say how ValidateFiles reads, checks and reports a
// batch.
type ValidateOptions struct {
	BatchOptions
	// Format is one of ReportFormats; the report goes to Out.
	Format string
	Out    io.Writer
	// Log receives a line for each input that could not be read,
	// "masrl COMMAND: runs.jsonl:3: error", Command being "trace validate".
	Log     io.Writer
	Command string
}

// ValidateFiles is the batch of trace validate: every trace of names
// checked on all cores (ValidateBatch) and its findings written to
// opts.Out as they come, in input order (ReportWriter). It returns the
// counts of the summary line and the report's write error.
func ValidateFiles(ctx context.Context, names []string, in BatchInput, opts ValidateOptions) (Tally, error) {
	var tally Tally
	rw := NewReportWriter(opts.Out, opts.Format)
	ValidateBatch(ctx, names, opts.BatchOptions, in, func(r *BatchResult) {
		tally.Add(r)
		if r.Err != nil {
			fmt.Fprintf(opts.Log, "masrl %s: %s: %v\n", opts.Command, r.Name(), r.Err)
		}
		rw.Add(r)
	})
	return tally, rw.Finish()
}

// Tally counts what a batch held, for the summary line and the exit code
// of trace validate.
type Tally struct {
	Traces   int // traces read and checked
	Errors   int // error findings, and inputs beyond a limit (ErrLimit)
	Warnings int
	// Unreadable counts the inputs that could not be read: not a
	// finding about a trace.
	Unreadable int
	// Lines is set when a trace was a line of a JSON Lines file: the
	// summary then counts traces, not files.
	Lines bool
}

// Add counts one result. Input beyond a limit is a finding about the
// input, as in trace import; an input that cannot be read is not.
func (t *Tally) Add(r *BatchResult) {
	t.Lines = t.Lines || r.Line > 0
	switch {
	case r.Err == nil:
		t.Traces++
		t.Errors += r.Result.Errors
		t.Warnings += r.Result.Warnings
	case errors.Is(r.Err, ErrLimit):
		t.Errors++
	default:
		t.Unreadable++
	}
}

// Summary is the summary line, "2 errors, 1 warning in 3 traces" (in
// files, the number named, when no trace was a JSON Lines line).
func (t Tally) Summary(files int) string {
	unit := diag.Count(files, "file")
	if t.Lines {
		unit = diag.Count(t.Traces, "trace")
	}
	return fmt.Sprintf("%s, %s in %s", diag.Count(t.Errors, "error"), diag.Count(t.Warnings, "warning"), unit)
}

// FindingsWriter writes each trace that has findings, or that could not
// be read, to a file as one line of JSON (a TraceReport), as trace stats
// --findings-jsonl does: a shard's findings by trace id, written as they
// come.
type FindingsWriter struct {
	file *os.File
	w    *bufio.Writer
	err  error
}

// CreateFindings creates (or truncates) the file name for a
// FindingsWriter; Close it.
func CreateFindings(name string) (*FindingsWriter, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &FindingsWriter{file: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Add writes r's line, if it has findings or an input error. The first
// write error stops the writer and is returned by Close.
func (fw *FindingsWriter) Add(r *BatchResult) {
	if fw.err != nil || (r.Err == nil && len(r.Result.Findings) == 0) {
		return
	}
	b, err := json.Marshal(r.TraceReport())
	if err == nil {
		_, err = fw.w.Write(append(b, '\n'))
	}
	fw.err = err
}

// Close writes what is buffered, closes the file and returns the first
// error.
func (fw *FindingsWriter) Close() error {
	if err := fw.w.Flush(); fw.err == nil {
		fw.err = err
	}
	if err := fw.file.Close(); fw.err == nil {
		fw.err = err
	}
	return fw.err
}
