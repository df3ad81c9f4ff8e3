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
	"os"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/site"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/viewer"
)

// traceView is "trace view": one self-contained HTML file that draws the
// traces of FILE (package trace/viewer), with the validator's findings and
// measures, to attach to a pull request or a paper's artifact.
func traceView(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fs := newFlagSet("trace view", "trace view [-o OUT.html] [--serve] [--addr 127.0.0.1:0] [--strict] [--jsonl] FILE", stderr)
	out := fs.String("o", "", "write the HTML `file` here (- for standard output); default: FILE's name with .html, in the current directory")
	serve := fs.Bool("serve", false, "serve the file on localhost instead of writing it, until interrupted")
	addr := fs.String("addr", "127.0.0.1:0", "the `address` --serve listens on")
	strict := fs.Bool("strict", false, "report edge-time and cycle warnings as errors")
	jsonl := fs.Bool("jsonl", false, "read FILE as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
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
	units, err := readViewUnits(ctx, name, *jsonl || trace.IsJSONLines(name), trace.Options{Strict: *strict}, tio)
	if err != nil {
		fmt.Fprintf(stderr, "masrl trace view: %v\n", err)
		return exitUsage
	}
	checklist, err := site.TraceChecklist(nil)
	if err != nil {
		fmt.Fprintf(stderr, "masrl trace view: %v\n", err)
		return exitUsage
	}
	var page bytes.Buffer
	if err := viewer.Write(&page, viewer.Page{Title: filepath.Base(displayName(name)), Units: units, Checklist: checklist}); err != nil {
		fmt.Fprintf(stderr, "masrl trace view: %v\n", err)
		return exitUsage
	}
	invalid := 0
	for _, u := range units {
		if !u.Report.Valid {
			invalid++
		}
	}
	if *serve {
		if err := serveView(ctx, *addr, page.Bytes(), stderr); err != nil {
			fmt.Fprintf(stderr, "masrl trace view: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	dest := *out
	if dest == "" {
		base := filepath.Base(displayName(name))
		if name == "-" {
			base = "stdin"
		}
		dest = strings.TrimSuffix(base, filepath.Ext(base)) + ".html"
	}
	if dest == "-" {
		_, err = stdout.Write(page.Bytes())
	} else {
		err = os.WriteFile(dest, page.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "masrl trace view: %v\n", err)
		return exitUsage
	}
	if dest != "-" {
		fmt.Fprintf(stderr, "masrl trace view: wrote %s (%s, %d with errors)\n", dest, count(len(units), "trace"), invalid)
	}
	return exitOK
}

// maxViewLine bounds one line of a JSON Lines file the viewer embeds.
const maxViewLine = 1 << 30

// readViewUnits reads and validates the traces of one file: the whole
// file, or each non-blank line of a JSON Lines file. The viewer embeds
// each trace's text, so unlike validate it holds them all.
func readViewUnits(ctx context.Context, name string, lines bool, opts trace.Options, tio traceIO) ([]viewer.Unit, error) {
	var r io.Reader
	if name == "-" {
		r = tio.stdin
	} else {
		if _, isDir, err := tio.dir(name); err == nil && isDir {
			return nil, fmt.Errorf("%s is a directory: trace view shows one file (a JSON Lines file holds a batch)", name)
		}
		f, err := tio.open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	r = trace.ContextReader(ctx, r)
	check := func(b []byte, line int) viewer.Unit {
		res, err := trace.Validate(bytes.NewReader(b), opts)
		return viewer.Unit{Name: displayName(name), Line: line, JSON: b, Report: viewer.NewReport(res, err)}
	}
	if !lines {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayName(name), err)
		}
		return []viewer.Unit{check(b, 0)}, nil
	}
	var units []viewer.Unit
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxViewLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		units = append(units, check(bytes.Clone(b), line))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("%s: no traces (every line is blank)", displayName(name))
	}
	return units, nil
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
