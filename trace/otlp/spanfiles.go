package otlp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/masrl/masrl/internal/diag"
	"github.com/masrl/masrl/trace"
)

// SpanFiles turns the span files among the arguments of trace view,
// validate or stats into the traces trace import makes of them, so that
// OpenTelemetry spans go straight in instead of being read as one broken
// trace. A file is told by its content (IsSpans, the importer's own
// detection), never by its name; directories are left as they are.
type SpanFiles struct {
	// Command names the command in the messages ("trace view").
	Command string
	// JSONLines is set when the command reads every file as JSON Lines
	// (--jsonl): the traces are then always written as lines.
	JSONLines bool
	// Log receives the imports' diagnostics and a line per span file,
	// as trace import reports them.
	Log io.Writer
	// imported holds the traces of each span file, under the name the
	// command reads them by.
	imported map[string][]byte
	// Errors counts the imports' errors, which are findings about the
	// input, and the span files that held no trace.
	Errors int
}

// importedName is the name the traces imported from the span file name
// are read by: they are no longer the file's bytes, so positions in them
// must not pass for positions in the file. One trace is read as a document
// (as `trace import FILE` writes it), several as JSON Lines (as `trace
// import --jsonl` writes them).
func importedName(name string, lines bool) string {
	if lines {
		return trace.DisplayName(name) + " (imported).jsonl"
	}
	return trace.DisplayName(name) + " (imported).json"
}

// Rewrite imports every span file among names and returns the names to
// read, with an input that opens the imported traces under their new
// names. Standard input is read through a buffer so that it can be told
// too. It fails only when an input cannot be read.
func (sf *SpanFiles) Rewrite(ctx context.Context, names []string, tio trace.BatchInput) ([]string, trace.BatchInput, error) {
	sf.imported = map[string][]byte{}
	out := make([]string, 0, len(names))
	for _, name := range names {
		if name == "-" {
			br := bufio.NewReaderSize(tio.Stdin, 1<<20)
			tio.Stdin = br
			if !IsSpans(br) {
				out = append(out, name)
				continue
			}
			n, err := sf.Import(ctx, name, br)
			if err != nil {
				return nil, tio, err
			}
			if n != "" {
				out = append(out, n)
			}
			continue
		}
		if _, isDir, err := tio.Dir(name); err == nil && isDir {
			out = append(out, name)
			continue
		}
		f, err := tio.Open(name)
		if err != nil {
			out = append(out, name) // the command reports it as it always did
			continue
		}
		br := bufio.NewReaderSize(f, 1<<20)
		if !IsSpans(br) {
			f.Close()
			out = append(out, name)
			continue
		}
		n, err := sf.Import(ctx, name, br)
		f.Close()
		if err != nil {
			return nil, tio, err
		}
		if n != "" {
			out = append(out, n)
		}
	}
	if len(sf.imported) > 0 {
		open := tio.Open
		tio.Open = func(name string) (io.ReadCloser, error) {
			if data, ok := sf.imported[name]; ok {
				return io.NopCloser(bytes.NewReader(data)), nil
			}
			return open(name)
		}
	}
	return out, tio, nil
}

// Import imports the span file name from r as trace import would,
// reporting its diagnostics to Log as trace import does, and returns
// the name its traces are read by, "" when it holds none.
func (sf *SpanFiles) Import(ctx context.Context, name string, r io.Reader) (string, error) {
	if sf.imported == nil {
		sf.imported = map[string][]byte{}
	}
	var traces [][]byte
	spans, warnings := 0, 0
	dw := bufio.NewWriter(sf.Log)
	defer dw.Flush()
	im := NewImporter(Options{}, func(t *Trace) error {
		traces = append(traces, t.JSON)
		spans += t.Spans
		return nil
	}, func(d Diagnostic) {
		if d.Severity == Warning {
			warnings++
		}
		dw.WriteString(d.String() + "\n")
	})
	err := im.Read(trace.DisplayName(name), trace.ContextReader(ctx, r))
	if err == nil {
		err = im.Close()
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", trace.DisplayName(name), err)
	}
	sf.Errors += im.Errors()
	lines := sf.JSONLines || len(traces) > 1
	var data []byte
	for _, t := range traces {
		if !lines {
			data = t
			break
		}
		var c bytes.Buffer
		if err := json.Compact(&c, t); err != nil {
			return "", fmt.Errorf("%s: imported trace: %w", trace.DisplayName(name), err)
		}
		data = append(append(data, c.Bytes()...), '\n')
	}
	n := importedName(name, lines)
	fmt.Fprintf(dw, "masrl %s: %s was read as OpenTelemetry spans and imported, as trace import would: %s from %s; %s, %s (the traces are read as %q)\n",
		sf.Command, trace.DisplayName(name), diag.Count(len(traces), "trace"), diag.Count(spans, "span"), diag.Count(im.Errors(), "error"), diag.Count(warnings, "warning"), n)
	if len(traces) == 0 {
		sf.Errors++
		fmt.Fprintf(dw, "masrl %s: %s: no trace imported\n", sf.Command, trace.DisplayName(name))
		return "", nil
	}
	sf.imported[n] = data
	return n, nil
}

// Imported returns the traces imported under name, the name Import
// returned.
func (sf *SpanFiles) Imported(name string) ([]byte, bool) {
	data, ok := sf.imported[name]
	return data, ok
}
