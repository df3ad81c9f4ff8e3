package viewer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/internal/atomicfile"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// This file is masrl trace view's page of one file: the input opened and,
// when it holds OpenTelemetry spans, imported first (otlp.SpanFiles); its
// traces read and validated (Read) and written into one page (Write),
// which is never written over the input.

// FileOptions say how ViewFile reads and draws its file.
type FileOptions struct {
	// Output is where the page will be written; it is refused before the
	// input is read when it is the input ("" and "-" name no file).
	Output string
	// Check are the validator's options (Strict).
	Check trace.Options
	// JSONLines reads the file as JSON Lines whatever its name.
	JSONLines bool
	// Limits bound a line and the traces held (MaxLine, MaxDocument).
	Limits trace.Limits
	// Checklist is the reporting checklist the page shows.
	Checklist []ChecklistItem
	// Spans imports a span file, reporting as trace import does; nil
	// reads every file as traces.
	Spans *otlp.SpanFiles
}

// FilePage is the page of one file.
type FilePage struct {
	HTML    []byte
	Traces  int // the traces drawn
	Invalid int // those of them with errors
	inputs  atomicfile.Inputs
}

// ErrNoTraceImported is the error of a span file that held no trace; the
// import has reported why.
var ErrNoTraceImported = errors.New("no trace imported")

// DefaultOutput is where trace view writes the page of name when -o is
// not given: its base name with .html, in the current directory
// ("stdin.html" for standard input).
func DefaultOutput(name string) string {
	base := filepath.Base(trace.DisplayName(name))
	if name == "-" {
		base = "stdin"
	}
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".html"
}

// ViewFile reads the file name of in ("-" is standard input; a directory
// is refused) and returns its page.
func ViewFile(ctx context.Context, name string, in trace.BatchInput, opts FileOptions) (*FilePage, error) {
	page := &FilePage{}
	var r io.Reader = in.Stdin
	if name == "-" {
		page.inputs.Add(trace.DisplayName(name), in.Stdin)
	} else {
		if _, isDir, err := in.Dir(name); err == nil && isDir {
			return nil, fmt.Errorf("%s is a directory: trace view shows one file (a JSON Lines file holds a batch)", name)
		}
		f, err := in.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		page.inputs.Add(name, f)
		r = f
	}
	// Refused before the input is read, not only when the page is
	// written: an input that takes minutes to read is not read in vain.
	if opts.Output != "" && opts.Output != "-" {
		if err := page.inputs.Check(opts.Output); err != nil {
			return nil, err
		}
	}
	// A span file is imported first, as trace import would.
	br := bufio.NewReaderSize(r, 1<<20)
	r, readName := br, trace.DisplayName(name)
	if opts.Spans != nil && otlp.IsSpans(br) {
		n, err := opts.Spans.Import(ctx, name, br)
		if err != nil {
			return nil, err
		}
		if n == "" {
			return nil, ErrNoTraceImported
		}
		data, _ := opts.Spans.Imported(n)
		r, readName = bytes.NewReader(data), n
	}
	units, err := Read(trace.ContextReader(ctx, r), readName, opts.JSONLines || trace.IsJSONLines(readName), opts.Check, opts.Limits)
	if err != nil {
		return nil, err
	}
	var html bytes.Buffer
	if err := Write(&html, Page{Title: filepath.Base(trace.DisplayName(name)), Units: units, Checklist: opts.Checklist}); err != nil {
		return nil, err
	}
	page.HTML, page.Traces = html.Bytes(), len(units)
	for _, u := range units {
		if !u.Report.Valid {
			page.Invalid++
		}
	}
	return page, nil
}

// Save writes the page to w when out is "-", else to the file out,
// whole or not at all, unless out is the input.
func (p *FilePage) Save(out string, w io.Writer) error {
	if out == "-" {
		_, err := w.Write(p.HTML)
		return err
	}
	return p.inputs.Write(out, p.HTML)
}
