package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/masrl/masrl/trace"
)

// A batch is every trace the arguments name: a file holds one trace, a
// JSON Lines file (.jsonl, .ndjson, or any input with --jsonl) one per
// line, and a directory the files below it with those extensions and
// .json, in lexical order of their paths. Traces are validated in parallel
// on all cores and reported in input order; lines are streamed, so memory
// stays bounded by the traces in flight, not by the file.

// isJSONLines reports whether name is a JSON Lines file by its extension.
func isJSONLines(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return true
	}
	return false
}

// traceFileExts are the files a directory contributes.
func traceFileExts() []string { return []string{".json", ".jsonl", ".ndjson"} }

// walkTraceDir returns the trace files below dir, in lexical order.
func walkTraceDir(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && slices.Contains(traceFileExts(), strings.ToLower(filepath.Ext(p))) {
			out = append(out, p)
		}
		return nil
	})
	return out, err // WalkDir visits in lexical order
}

// traceUnit is one trace of a batch.
type traceUnit struct {
	file string // as named (or found below a named directory); "-" is stdin
	// line is the trace's line in a JSON Lines file, 0 for a whole file;
	// data is then the line.
	line int
	data []byte
	// err is an input error: the file (or the rest of a JSON Lines file)
	// could not be read.
	err error
}

// unitResult is the outcome for one trace.
type unitResult struct {
	traceUnit
	res *trace.Result
}

// batchOptions say how to read and check a batch.
type batchOptions struct {
	check trace.Options
	jsonl bool // every file, stdin included, is JSON Lines
}

// maxInFlight is how many traces per worker may be read ahead of the one
// being reported: enough to keep every core busy while a slow trace holds
// up the output, few enough that memory stays bounded.
const maxInFlight = 16

// eachTrace validates every trace of names on all cores and calls emit
// with each result, in input order, on the calling goroutine.
func eachTrace(ctx context.Context, names []string, bo batchOptions, tio traceIO, emit func(*unitResult)) {
	workers := runtime.GOMAXPROCS(0)
	v := trace.NewValidator()
	type job struct {
		seq int
		u   traceUnit
	}
	type done struct {
		seq int
		r   *unitResult
	}
	// Lines are read into buffers that come back once their trace is
	// checked (the result keeps nothing of them).
	var lineBufs sync.Pool
	jobs := make(chan job)
	results := make(chan done, workers)
	slots := make(chan struct{}, workers*maxInFlight)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				r := checkUnit(ctx, v, j.u, bo.check, tio)
				if j.u.data != nil {
					putLineBuf(&lineBufs, j.u.data)
				}
				results <- done{j.seq, r}
			}
		})
	}
	total := make(chan int, 1)
	go func() {
		seq := 0
		send := func(u traceUnit) bool {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			jobs <- job{seq, u}
			seq++
			return true
		}
		listUnits(ctx, names, bo, tio, &lineBufs, send)
		close(jobs)
		total <- seq
	}()
	go func() { wg.Wait(); close(results) }()

	pending := map[int]*unitResult{}
	next := 0
	for d := range results {
		pending[d.seq] = d.r
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			emit(r)
			<-slots
			next++
		}
	}
	<-total
}

// listUnits calls send with every trace of names, in order, until send
// returns false.
func listUnits(ctx context.Context, names []string, bo batchOptions, tio traceIO, bufs *sync.Pool, send func(traceUnit) bool) {
	stdinUsed := false
	for _, n := range names {
		if n == "-" {
			if stdinUsed {
				if !send(traceUnit{file: n, err: errors.New("standard input can be read only once")}) {
					return
				}
				continue
			}
			stdinUsed = true
		}
		files := []string{n}
		if n != "-" {
			if sub, isDir, err := tio.dir(n); err != nil {
				if !send(traceUnit{file: n, err: err}) {
					return
				}
				continue
			} else if isDir {
				files = sub
			}
		}
		for _, f := range files {
			if !(bo.jsonl || isJSONLines(f)) {
				if !send(traceUnit{file: f}) {
					return
				}
				continue
			}
			if !sendLines(ctx, f, tio, bufs, send) {
				return
			}
		}
	}
}

// sendLines sends every non-blank line of the JSON Lines file name. A
// line may be of any length; it is read whole, as its trace is checked
// from memory.
func sendLines(ctx context.Context, name string, tio traceIO, bufs *sync.Pool, send func(traceUnit) bool) bool {
	var r io.Reader
	if name == "-" {
		r = tio.stdin
	} else {
		f, err := tio.open(name)
		if err != nil {
			return send(traceUnit{file: name, err: err})
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(ctxReader{ctx, r}, 1<<20)
	for line := 1; ; line++ {
		var buf []byte
		if p, ok := bufs.Get().(*[]byte); ok {
			buf = *p
		}
		data, err := readLine(br, buf)
		if len(bytes.TrimSpace(data)) > 0 {
			if !send(traceUnit{file: name, line: line, data: data}) {
				return false
			}
		} else {
			putLineBuf(bufs, data)
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			return send(traceUnit{file: name, line: line, err: fmt.Errorf("line %d: %w", line, err)})
		}
	}
}

// putLineBuf returns a line's buffer to the pool.
func putLineBuf(bufs *sync.Pool, b []byte) {
	b = b[:0]
	bufs.Put(&b)
}

// readLine appends the next line, without its end, to out[:0].
func readLine(br *bufio.Reader, out []byte) ([]byte, error) {
	out = out[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		switch {
		case err == nil:
			out = out[:len(out)-1]
			return bytes.TrimSuffix(out, []byte("\r")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default: // the last line, without an end
			return bytes.TrimSuffix(out, []byte("\r")), err
		}
	}
}

// checkUnit validates one trace.
func checkUnit(ctx context.Context, v *trace.Validator, u traceUnit, opts trace.Options, tio traceIO) *unitResult {
	out := &unitResult{traceUnit: u}
	if u.err != nil {
		return out
	}
	if u.data != nil {
		opts.SizeHint = int64(len(u.data))
		out.res, out.err = v.ValidateBytes(u.data, opts)
		out.data = nil
		return out
	}
	var r io.Reader
	if u.file == "-" {
		r = tio.stdin
	} else {
		f, err := tio.open(u.file)
		if err != nil {
			out.err = err
			return out
		}
		defer f.Close()
		r = f
		if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				opts.SizeHint = fi.Size()
			}
		}
	}
	out.res, out.err = v.Validate(ctxReader{ctx, r}, opts)
	return out
}

// osTraceDir lists the trace files below name if it is a directory.
func osTraceDir(name string) ([]string, bool, error) {
	fi, err := os.Stat(name)
	if err != nil || !fi.IsDir() {
		return nil, false, nil // a missing file is reported when it is opened
	}
	files, err := walkTraceDir(name)
	return files, true, err
}

// where places a finding of u in its file: a JSON Lines trace's line 1 is
// the file's line u.line.
func (u *traceUnit) where(f trace.Finding) (line, col int) {
	if u.line > 0 {
		return u.line + f.Line - 1, f.Col
	}
	return f.Line, f.Col
}

// traceID is the trace's id, for naming it in a batch; "" if none was
// read.
func (r *unitResult) traceID() string {
	if r.res == nil {
		return ""
	}
	return r.res.Report.TraceID
}
