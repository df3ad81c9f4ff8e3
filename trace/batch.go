package trace

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
)

// This file is the batch engine of masrl trace validate and stats.
//
// A batch is every trace the arguments name: a file holds one trace, a
// JSON Lines file (.jsonl, .ndjson, or any input with --jsonl) one per
// line, and a directory the files below it with those extensions and
// .json, in lexical order of their paths. Traces are validated in parallel
// on all cores and reported in input order; lines are streamed, so memory
// stays bounded by the traces in flight, not by the file.

// IsJSONLines reports whether name is a JSON Lines file by its extension.
func IsJSONLines(name string) bool {
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

// BatchTrace is one trace of a batch.
type BatchTrace struct {
	File string // as named (or found below a named directory); "-" is stdin
	// Line is the trace's line in a JSON Lines file, 0 for a whole file;
	// data is then the line.
	Line int
	data []byte
	// Err is an input error: the file (or the rest of a JSON Lines file)
	// could not be read.
	Err error
}

// BatchResult is the outcome for one trace: Result is nil when Err is set.
type BatchResult struct {
	BatchTrace
	Result *Result
}

// BatchOptions say how to read and check a batch.
type BatchOptions struct {
	Check     Options
	JSONLines bool // every file, stdin included, is JSON Lines
	// Limits bound a line of JSON Lines (MaxLine); zero fields are the
	// defaults.
	Limits Limits
}

// BatchInput is where a batch reads files and standard input from.
// Commands use OSBatchInput; tests substitute both, so that scripts run
// in-process can name files relative to their own directory.
type BatchInput struct {
	Stdin io.Reader
	Open  func(name string) (io.ReadCloser, error)
	// Dir lists the trace files below name, in order, if it is a
	// directory; isDir is false otherwise.
	Dir func(name string) (files []string, isDir bool, err error)
}

// OSBatchInput reads the file system and os.Stdin.
func OSBatchInput() BatchInput {
	return BatchInput{
		Stdin: os.Stdin,
		Open:  func(name string) (io.ReadCloser, error) { return os.Open(name) },
		Dir:   OSTraceDir,
	}
}

// maxInFlight is how many traces per worker may be checked ahead of the
// one to be reported next: enough to keep every core busy while a slow
// trace holds up the output, few enough that memory stays bounded.
const maxInFlight = 16

// ValidateBatch validates every trace of names on all cores and calls emit
// with each result, in input order and never concurrently (emit may run
// on any worker).
//
// The workers read the input themselves: the one that needs the next
// trace reads it, under the source's lock, into a buffer of its own that
// it reuses for its next line, so no goroutine stands between the file and
// the checks and no pool of line buffers is needed.
func ValidateBatch(ctx context.Context, names []string, bo BatchOptions, tio BatchInput, emit func(*BatchResult)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := runtime.GOMAXPROCS(0)
	v := NewValidator()
	src := &unitSource{ctx: ctx, names: names, jsonl: bo.JSONLines, tio: tio, maxLine: bo.Limits.OrDefault().MaxLine}
	out := &inOrder{emit: emit, pending: map[int]*BatchResult{}}
	// A slot is taken before a trace is read and given back once its
	// result is emitted, which bounds the results waiting for a slow one.
	slots := make(chan struct{}, workers*maxInFlight)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var buf []byte
			for {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				u, seq, ok := src.next(buf)
				if !ok {
					<-slots
					return
				}
				if u.data != nil {
					buf = u.data // the check keeps nothing of the line
				}
				r := checkUnit(ctx, v, u, bo.Check, tio, &buf)
				out.put(seq, r, slots)
			}
		})
	}
	wg.Wait()
	src.close()
}

// inOrder hands results to emit in input order.
type inOrder struct {
	mu      sync.Mutex
	next    int
	pending map[int]*BatchResult
	emit    func(*BatchResult)
}

// put files the result of trace seq and emits every result that is now
// next in line, giving back a slot for each.
func (o *inOrder) put(seq int, r *BatchResult, slots chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending[seq] = r
	for r, ok := o.pending[o.next]; ok; r, ok = o.pending[o.next] {
		delete(o.pending, o.next)
		o.emit(r)
		<-slots
		o.next++
	}
}

// unitSource lists the traces of a batch, in order, one at a time, for
// the workers that ask for them.
type unitSource struct {
	mu        sync.Mutex
	ctx       context.Context
	names     []string // arguments not yet listed
	files     []string // files of the current argument not yet listed
	lines     *lineReader
	jsonl     bool // every file, stdin included, is JSON Lines
	maxLine   int64
	tio       BatchInput
	stdinUsed bool
	seq       int
}

// next returns the batch's next trace and its number in the batch; ok is
// false when there are no more. A JSON Lines trace is read into buf's
// memory (grown as needed).
func (s *unitSource) next(buf []byte) (u BatchTrace, seq int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.ctx.Err() != nil {
			return BatchTrace{}, 0, false
		}
		switch {
		case s.lines != nil:
			u, ok := s.lines.next(buf)
			if !ok {
				s.lines.close()
				s.lines = nil
				continue
			}
			if u.Err != nil {
				s.lines.close()
				s.lines = nil
			}
			return s.number(u)
		case len(s.files) > 0:
			f := s.files[0]
			s.files = s.files[1:]
			if !(s.jsonl || IsJSONLines(f)) {
				return s.number(BatchTrace{File: f})
			}
			lr, err := openLines(s.ctx, f, s.tio, s.maxLine)
			if err != nil {
				return s.number(BatchTrace{File: f, Err: err})
			}
			s.lines = lr
		case len(s.names) > 0:
			n := s.names[0]
			s.names = s.names[1:]
			if n == "-" {
				if s.stdinUsed {
					return s.number(BatchTrace{File: n, Err: errors.New("standard input can be read only once")})
				}
				s.stdinUsed = true
				s.files = []string{n}
				continue
			}
			sub, isDir, err := s.tio.Dir(n)
			switch {
			case err != nil:
				return s.number(BatchTrace{File: n, Err: err})
			case isDir:
				s.files = sub
			default:
				s.files = []string{n}
			}
		default:
			return BatchTrace{}, 0, false
		}
	}
}

// number gives u the next number in the batch.
func (s *unitSource) number(u BatchTrace) (BatchTrace, int, bool) {
	s.seq++
	return u, s.seq - 1, true
}

// close closes the JSON Lines file being read, if any.
func (s *unitSource) close() {
	if s.lines != nil {
		s.lines.close()
		s.lines = nil
	}
}

// lineReader reads the non-blank lines of a JSON Lines file. A line is
// read whole, as its trace is checked from memory, so it may be at most
// max bytes long: a longer one ends the file with a LimitError (an
// endless line would otherwise take all memory).
type lineReader struct {
	name string
	br   *bufio.Reader
	c    io.Closer // nil for standard input
	line int
	off  int64 // byte offset of the next line
	max  int64
}

// openLines opens the JSON Lines file name ("-" is standard input); its
// lines may be max bytes long.
func openLines(ctx context.Context, name string, tio BatchInput, max int64) (*lineReader, error) {
	lr := &lineReader{name: name, max: max}
	var r io.Reader = tio.Stdin
	if name != "-" {
		f, err := tio.Open(name)
		if err != nil {
			return nil, err
		}
		r, lr.c = f, f
	}
	lr.br = bufio.NewReaderSize(ContextReader(ctx, r), 1<<20)
	return lr, nil
}

// next returns the file's next non-blank line, read into buf's memory, or
// the error that ended the file; ok is false at its end.
func (lr *lineReader) next(buf []byte) (u BatchTrace, ok bool) {
	for lr.br != nil {
		lr.line++
		data, n, err := ReadLine(lr.br, buf, lr.max)
		buf = data
		if errors.Is(err, ErrLimit) {
			lr.br = nil
			return BatchTrace{File: lr.name, Line: lr.line, Err: &LimitError{What: fmt.Sprintf("line %d", lr.line), Limit: lr.max, Flag: "--max-line", Byte: lr.off}}, true
		}
		lr.off += n
		if err != nil && err != io.EOF {
			lr.br = nil
			return BatchTrace{File: lr.name, Line: lr.line, Err: fmt.Errorf("line %d: %w", lr.line, err)}, true
		}
		if err == io.EOF {
			lr.br = nil
		}
		if len(bytes.TrimSpace(data)) > 0 {
			return BatchTrace{File: lr.name, Line: lr.line, data: data}, true
		}
	}
	return BatchTrace{}, false
}

// close closes the file.
func (lr *lineReader) close() {
	if lr.c != nil {
		lr.c.Close()
	}
}

// ReadLine appends the next line, without its end ("\n" or "\r\n"), to
// out[:0], and returns it and the bytes consumed. A line longer than max
// bytes is not read further: ReadLine returns an error wrapping ErrLimit
// once it has seen max+1 bytes of it, having grown out by no more than
// the bytes that arrived (at most max plus the reader's buffer).
func ReadLine(br *bufio.Reader, out []byte, max int64) ([]byte, int64, error) {
	out = out[:0]
	var n int64
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		body := n
		if errors.Is(err, bufio.ErrBufferFull) && chunk[len(chunk)-1] == '\r' {
			body-- // perhaps the start of "\r\n"
		}
		if err == nil {
			body-- // the newline
			if len(chunk) > 1 && chunk[len(chunk)-2] == '\r' || len(chunk) == 1 && len(out) > 0 && out[len(out)-1] == '\r' {
				body--
			}
		}
		if body > max {
			return out, n, ErrLimit
		}
		out = append(out, chunk...)
		switch {
		case err == nil:
			out = out[:len(out)-1]
			return bytes.TrimSuffix(out, []byte("\r")), n, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default: // the last line, without an end
			return bytes.TrimSuffix(out, []byte("\r")), n, err
		}
	}
}

// maxInPlace is the largest trace file that is read whole into the
// worker's buffer and checked in place, like a line of a JSON Lines file;
// a larger one is mapped into memory and checked in place a window at a
// time (validateFile), or, where it cannot be mapped, checked as a
// stream, so that memory stays bounded by what the validator keeps of it,
// not by the file. Streaming a small file
// costs more than reading it: the readahead's chunks are allocated for
// each file, which made a directory of a thousand imported traces take
// three times as long, and three times the memory, as the same traces in
// one JSON Lines file.
const maxInPlace = 16 << 20

// checkUnit validates one trace. buf is the worker's buffer, which a file
// of at most maxInPlace bytes is read into (and which may grow).
func checkUnit(ctx context.Context, v *Validator, u BatchTrace, opts Options, tio BatchInput, buf *[]byte) *BatchResult {
	out := &BatchResult{BatchTrace: u}
	if u.Err != nil {
		return out
	}
	if u.data != nil {
		opts.SizeHint = int64(len(u.data))
		out.Result, out.Err = v.ValidateBytes(u.data, opts)
		out.data = nil
		return out
	}
	var r io.Reader
	if u.File == "-" {
		r = tio.Stdin
	} else {
		f, err := tio.Open(u.File)
		if err != nil {
			out.Err = err
			return out
		}
		defer f.Close()
		r = f
		if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				opts.SizeHint = fi.Size()
			}
		}
		if of, ok := f.(*os.File); ok && opts.SizeHint > maxInPlace {
			res, err := v.validateFile(ctx, of, opts.SizeHint, opts)
			if !errors.Is(err, errNotMapped) {
				out.Result, out.Err = res, err
				return out
			}
		}
		if opts.SizeHint > 0 && opts.SizeHint <= maxInPlace {
			data, err := readInto(ContextReader(ctx, r), *buf, opts.SizeHint)
			*buf = data
			if err != nil {
				out.Err = err
				return out
			}
			out.Result, out.Err = v.ValidateBytes(data, opts)
			return out
		}
	}
	out.Result, out.Err = v.Validate(ContextReader(ctx, r), opts)
	return out
}

// readInto reads r to its end into buf's memory, grown to hold size bytes
// (the file's size when it was opened) and more if r has more.
func readInto(r io.Reader, buf []byte, size int64) ([]byte, error) {
	buf = slices.Grow(buf[:0], int(size)+1) // +1: the read that finds the end
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf)/2)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// ContextReader reads r until ctx is done, and then fails with ctx's
// error: an interrupted command stops reading (and validating) at once.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// OSTraceDir lists the trace files below name if it is a directory.
func OSTraceDir(name string) ([]string, bool, error) {
	fi, err := os.Stat(name)
	if err != nil || !fi.IsDir() {
		return nil, false, nil // a missing file is reported when it is opened
	}
	files, err := walkTraceDir(name)
	return files, true, err
}

// Where places a finding of u in its file: a JSON Lines trace's line 1 is
// the file's line u.Line.
func (u *BatchTrace) Where(f Finding) (line, col int) {
	if u.Line > 0 {
		return u.Line + f.Line - 1, f.Col
	}
	return f.Line, f.Col
}

// TraceID is the trace's id, for naming it in a batch; "" if none was
// read.
func (r *BatchResult) TraceID() string {
	if r.Result == nil {
		return ""
	}
	return r.Result.Report.TraceID
}
