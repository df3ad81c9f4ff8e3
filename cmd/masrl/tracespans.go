package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// spanFiles turns the span files among the arguments of trace view,
// validate or stats into the traces trace import makes of them, so that
// OpenTelemetry spans go straight in instead of being read as one broken
// trace. A file is told by its content (otlp.IsSpans, the importer's own
// detection), never by its name; directories are left as they are.
type spanFiles struct {
	cmd    string // "trace view", for messages
	jsonl  bool   // the command reads every file as JSON Lines (--jsonl)
	stderr io.Writer
	// imported holds the traces of each span file, under the name the
	// command reads them by.
	imported map[string][]byte
	errors   int // the imports' errors, which are findings about the input
}

// importedName is the name the traces imported from the span file name
// are read by: they are no longer the file's bytes, so positions in them
// must not pass for positions in the file. One trace is read as a document
// (as `trace import FILE` writes it), several as JSON Lines (as `trace
// import --jsonl` writes them).
func importedName(name string, lines bool) string {
	if lines {
		return displayName(name) + " (imported).jsonl"
	}
	return displayName(name) + " (imported).json"
}

// rewrite imports every span file among names and returns the names to
// read, with a traceIO that opens the imported traces under their new
// names. Standard input is read through a buffer so that it can be told
// too. It fails only when an input cannot be read.
func (sf *spanFiles) rewrite(ctx context.Context, names []string, tio traceIO) ([]string, traceIO, error) {
	sf.imported = map[string][]byte{}
	out := make([]string, 0, len(names))
	for _, name := range names {
		if name == "-" {
			br := bufio.NewReaderSize(tio.stdin, 1<<20)
			tio.stdin = br
			if !otlp.IsSpans(br) {
				out = append(out, name)
				continue
			}
			n, err := sf.importOne(ctx, name, br)
			if err != nil {
				return nil, tio, err
			}
			if n != "" {
				out = append(out, n)
			}
			continue
		}
		if _, isDir, err := tio.dir(name); err == nil && isDir {
			out = append(out, name)
			continue
		}
		f, err := tio.open(name)
		if err != nil {
			out = append(out, name) // the command reports it as it always did
			continue
		}
		br := bufio.NewReaderSize(f, 1<<20)
		if !otlp.IsSpans(br) {
			f.Close()
			out = append(out, name)
			continue
		}
		n, err := sf.importOne(ctx, name, br)
		f.Close()
		if err != nil {
			return nil, tio, err
		}
		if n != "" {
			out = append(out, n)
		}
	}
	if len(sf.imported) > 0 {
		open := tio.open
		tio.open = func(name string) (io.ReadCloser, error) {
			if data, ok := sf.imported[name]; ok {
				return io.NopCloser(bytes.NewReader(data)), nil
			}
			return open(name)
		}
	}
	return out, tio, nil
}

// importOne imports the span file name from r as trace import would,
// reporting its diagnostics to stderr as trace import does, and returns
// the name its traces are read by, "" when it holds none.
func (sf *spanFiles) importOne(ctx context.Context, name string, r io.Reader) (string, error) {
	if sf.imported == nil {
		sf.imported = map[string][]byte{}
	}
	var traces [][]byte
	spans, warnings := 0, 0
	dw := bufio.NewWriter(sf.stderr)
	defer dw.Flush()
	im := otlp.NewImporter(otlp.Options{}, func(t *otlp.Trace) error {
		traces = append(traces, t.JSON)
		spans += t.Spans
		return nil
	}, func(d otlp.Diagnostic) {
		if d.Severity == otlp.Warning {
			warnings++
		}
		dw.WriteString(d.String() + "\n")
	})
	err := im.Read(displayName(name), trace.ContextReader(ctx, r))
	if err == nil {
		err = im.Close()
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", displayName(name), err)
	}
	sf.errors += im.Errors()
	lines := sf.jsonl || len(traces) > 1
	var data []byte
	for _, t := range traces {
		if !lines {
			data = t
			break
		}
		var c bytes.Buffer
		if err := json.Compact(&c, t); err != nil {
			return "", fmt.Errorf("%s: imported trace: %w", displayName(name), err)
		}
		data = append(append(data, c.Bytes()...), '\n')
	}
	n := importedName(name, lines)
	fmt.Fprintf(dw, "masrl %s: %s was read as OpenTelemetry spans and imported, as trace import would: %s from %s; %s, %s (the traces are read as %q)\n",
		sf.cmd, displayName(name), count(len(traces), "trace"), count(spans, "span"), count(im.Errors(), "error"), count(warnings, "warning"), n)
	if len(traces) == 0 {
		sf.errors++
		fmt.Fprintf(dw, "masrl %s: %s: no trace imported\n", sf.cmd, displayName(name))
		return "", nil
	}
	sf.imported[n] = data
	return n, nil
}
