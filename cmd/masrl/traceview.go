package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
	"github.com/masrl/masrl/trace/viewer"
)

// traceView is "trace view": one self-contained HTML file that draws the
// traces of FILE (package trace/viewer), with the validator's findings and
// measures, to attach to a pull request or a paper's artifact.
func traceView(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fail := failer(stderr, "trace view")
	fs := newFlagSet("trace view", "trace view [-o OUT.html] [--serve] [--addr 127.0.0.1:0] [--strict] [--jsonl] [--max-line BYTES] [--max-document BYTES] FILE", stderr)
	out := fs.String("o", "", "write the HTML `file` here (- for standard output); default: FILE's name with .html, in the current directory")
	serve := fs.Bool("serve", false, "serve the file on localhost instead of writing it, until interrupted")
	addr := fs.String("addr", "127.0.0.1:0", "the `address` --serve listens on")
	strict := fs.Bool("strict", false, "report edge-time and cycle warnings as errors")
	jsonl := fs.Bool("jsonl", false, "read FILE as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line", "document")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "masrl trace view: want one FILE, got %d\n", len(files))
		fs.Usage()
		return exitUsage
	}
	name := files[0]
	r, inputs, closeInput, err := openViewInput(name, tio)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	defer closeInput()
	dest := *out
	if dest == "" && !*serve {
		base := filepath.Base(displayName(name))
		if name == "-" {
			base = "stdin"
		}
		dest = strings.TrimSuffix(base, filepath.Ext(base)) + ".html"
	}
	// Refused before the input is read, not only when the page is
	// written: an input that takes minutes to read is not read in vain.
	if dest != "" && dest != "-" {
		if err := notAnInput(dest, inputs); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	// A span file is imported first, as trace import would.
	sf := &spanFiles{cmd: "trace view", jsonl: *jsonl, stderr: stderr}
	br := bufio.NewReaderSize(r, 1<<20)
	r, readName := io.Reader(br), displayName(name)
	if otlp.IsSpans(br) {
		n, err := sf.importOne(ctx, name, br)
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		if n == "" {
			return exitFindings
		}
		r, readName = bytes.NewReader(sf.imported[n]), n
	}
	units, err := viewer.Read(trace.ContextReader(ctx, r), readName, *jsonl || trace.IsJSONLines(readName), trace.Options{Strict: *strict}, limits)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	checklist, err := site.TraceChecklist(nil)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	var page bytes.Buffer
	if err := viewer.Write(&page, viewer.Page{Title: filepath.Base(displayName(name)), Units: units, Checklist: checklist}); err != nil {
		return fail(exitUsage, "%v", err)
	}
	invalid := 0
	for _, u := range units {
		if !u.Report.Valid {
			invalid++
		}
	}
	if *serve {
		if err := serveView(ctx, *addr, page.Bytes(), stderr); err != nil {
			return fail(exitUsage, "%v", err)
		}
		return exitOK
	}
	if dest == "-" {
		_, err = stdout.Write(page.Bytes())
	} else {
		err = writeOutput(dest, page.Bytes(), inputs)
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if dest != "-" {
		fmt.Fprintf(stderr, "masrl trace view: wrote %s (%s, %d with errors)\n", dest, count(len(units), "trace"), invalid)
	}
	return exitOK
}

// openViewInput opens FILE of trace view ("-" is standard input) and
// returns it with what the output must not overwrite.
func openViewInput(name string, tio traceIO) (r io.Reader, inputs []inputFile, closeInput func(), err error) {
	if name == "-" {
		if in, ok := statInput(name, tio.stdin); ok {
			inputs = append(inputs, in)
		}
		return tio.stdin, inputs, func() {}, nil
	}
	if _, isDir, err := tio.dir(name); err == nil && isDir {
		return nil, nil, nil, fmt.Errorf("%s is a directory: trace view shows one file (a JSON Lines file holds a batch)", name)
	}
	f, err := tio.open(name)
	if err != nil {
		return nil, nil, nil, err
	}
	if in, ok := statInput(name, f); ok {
		inputs = append(inputs, in)
	}
	return f, inputs, func() { f.Close() }, nil
}

// serveView serves the page at / on addr until ctx ends, and says where.
func serveView(ctx context.Context, addr string, page []byte, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", viewer.Policy())
		w.Write(page)
	})}
	fmt.Fprintf(stderr, "masrl trace view: serving on http://%s/ (interrupt to stop)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
