package otlp

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/masrl/masrl/trace"
)

// DefaultWindow is the default of Options.Window.
const DefaultWindow = 10000

// Options configure an Importer.
type Options struct {
	// Window is how many further spans a trace stays open after its root
	// span (the span without a parent) arrived; it is written at the end
	// of the line (or protobuf record) on which the count is reached. The
	// SDKs export a span when it ends and a root ends after its children,
	// so the root usually comes last; the window catches children exported
	// late by another process. Counting spans, not lines, bounds the spans
	// held for finished traces whatever the exporter's batch size. A span
	// that arrives after its trace was written is reported, not lost
	// silently.
	// Zero means DefaultWindow; traces without a root are written when the
	// input ends.
	Window int
	// Task is the task_id of every trace; empty means the root span's name.
	Task string
	// Compact writes each trace on one line (for JSON Lines output).
	Compact bool
	// Workers is how many lines (or protobuf records) are decoded at once;
	// zero means GOMAXPROCS.
	Workers int
	// Format is the input's format; FormatAuto tells it by its content.
	Format Format
	// ByConversation joins the OTel traces of one conversation
	// (gen_ai.conversation.id or OpenInference session.id, the first one
	// a trace's spans carry) into one orchestration trace, named by the
	// id of its first trace; traces without one stay as they are. Every
	// trace is then held until Close: memory grows with the input.
	ByConversation bool
	// Limits bound a line of OTLP/JSON, a multi-line document, a protobuf
	// record and what a compressed input expands to (trace.Limits); zero
	// fields are the defaults.
	Limits trace.Limits
}

// Trace is one imported orchestration trace.
type Trace struct {
	ID    string // the OTel trace id, 32 hex digits
	JSON  []byte // the orchestration trace, ending in a newline
	Spans int    // spans read for it
	Stats Stats
}

// Stats are the figures of a trace that tests compare with the spans.
type Stats struct {
	Events, Edges   int
	Tokens          int64
	ToolCalls       int
	Messages        int
	Spawns          int
	WallClockS      float64
	Rewards         map[string]float64
	Topology        string
	DroppedWarnings int // warnings about spans left out
}

// Importer groups the spans of one or more OTLP inputs by trace id
// and hands every finished trace to Emit, in an order that depends only on
// the input. Diagnostics go to Report in input order.
type Importer struct {
	opts   Options
	emit   func(*Trace) error
	report func(Diagnostic)

	files   []source
	open    map[[16]byte]*pending
	order   [][16]byte // open traces in order of first arrival
	rooted  []rootMark // traces whose root arrived, in order
	written map[[16]byte]struct{}
	spans   int64 // spans consumed so far, over all inputs
	seq     int64
	errors  int
	err     error // first error of Emit

	// Traces are built by a pool of goroutines and emitted in the order
	// they were flushed: fifo holds the builds under way, and the oldest
	// is waited for when more than maxBuilds are.
	jobs      chan *buildJob
	fifo      []*buildJob
	builders  sync.WaitGroup
	maxBuilds int
}

type buildJob struct {
	id    [16]byte
	spans []span
	files []source
	t     *Trace
	diags []Diagnostic
	done  chan struct{}
}

type pending struct {
	spans  []span
	rootAt int64 // im.spans when the root span arrived; -1 before
}

type rootMark struct {
	id [16]byte
	at int64
}

// NewImporter returns an Importer that passes traces to emit and every
// diagnostic to report.
func NewImporter(opts Options, emit func(*Trace) error, report func(Diagnostic)) *Importer {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	opts.Limits = opts.Limits.OrDefault()
	return &Importer{opts: opts, emit: emit, report: report, maxBuilds: 2 * opts.Workers,
		open: map[[16]byte]*pending{}, written: map[[16]byte]struct{}{}}
}

// Errors is the number of error diagnostics so far (malformed input that
// was dropped).
func (im *Importer) Errors() int { return im.errors }

func (im *Importer) diag(d Diagnostic) {
	if d.Severity == Error {
		im.errors++
	}
	im.report(d)
}

// unit is one line, or one whole document, of OTLP/JSON, or one record of
// OTLP protobuf.
type unit struct {
	data  []byte
	line  int // first line of data in the file, or the record's number
	off   int64
	doc   bool
	rec   bool // a protobuf record
	spans []span
	diags []Diagnostic
	done  chan struct{}
}

// Read imports one input. name is used in positions. It returns an error
// only when the input cannot be read or Emit failed; malformed input is
// reported as diagnostics.
func (im *Importer) Read(name string, r io.Reader) error {
	if im.err != nil {
		return im.err
	}
	br, zc, compressed, err := decompressed(bufio.NewReaderSize(r, 1<<20), im.opts.Limits)
	if err != nil {
		return err
	}
	defer zc.Close()
	format, auto := im.opts.Format, im.opts.Format == FormatAuto
	note := "" // added to the first error of an input whose form was guessed
	if auto {
		if format, err = detect(br); err != nil {
			return err
		}
		head, _ := br.Peek(16)
		note = formsTried(head, format, compressed)
	}
	isProto := format == FormatProto || format == FormatProtoBody
	file := int32(len(im.files))
	im.files = append(im.files, source{name: name, proto: isProto})
	if isProto && !protoBuild {
		msg := errNoProto
		if auto {
			msg = "the input does not start with '{': " + msg
		}
		im.diag(Diagnostic{Severity: Error, File: name, Record: 1, Message: msg})
		return nil
	}
	units := make(chan *unit, 2*im.opts.Workers)
	work := make(chan *unit)
	var wg sync.WaitGroup
	for range im.opts.Workers {
		wg.Go(func() {
			p := parser{limits: im.opts.Limits}
			defer p.closeDecoders()
			for u := range work {
				p.file, p.name = file, name
				if u.diags == nil { // else a framing error, found by the splitter
					decoded := true
					switch {
					case u.rec:
						decoded = p.parseRecord(u.data, u.line, u.off)
					case u.doc:
						starts := lineStarts(u.data)
						p.parseUnit(u.data, func(off int64) (int, int) {
							i := sort.Search(len(starts), func(i int) bool { return int64(starts[i]) > off }) - 1
							return u.line + i, int(off-int64(starts[i])) + 1
						})
					default:
						p.parseUnit(u.data, func(off int64) (int, int) { return u.line, int(off) + 1 })
					}
					u.spans, u.diags = p.spans, p.diags
					if u.line == 1 && !decoded {
						u.diags[0].Message += note
					}
				}
				u.data = nil
				close(u.done)
			}
		})
	}
	// quit stops the reading once Emit has failed: the rest of the
	// input could not be written anyway. A unit goes to a worker before
	// it is queued for the consumer, so every queued unit gets done.
	quit := make(chan struct{})
	var readErr error
	go func() {
		send := func(u *unit) bool {
			u.done = make(chan struct{})
			select {
			case work <- u:
			case <-quit:
				return false
			}
			units <- u
			return true
		}
		switch format {
		case FormatProto:
			readErr = splitRecords(br, name, note, im.opts.Limits, send)
		case FormatProtoBody:
			readErr = readBody(br, name, note, im.opts.Limits, send)
		default:
			readErr = split(br, name, im.opts.Limits, send)
		}
		close(units)
		close(work)
	}()
	stopped := false
	for u := range units {
		<-u.done
		if im.err == nil {
			im.consume(u)
		}
		if im.err != nil && !stopped {
			stopped = true
			close(quit)
		}
	}
	wg.Wait()
	if readErr != nil {
		return readErr
	}
	return im.err
}

// split cuts the input into lines, or into one document when the first
// non-blank line is not a JSON value by itself (a pretty-printed request),
// and stops when send returns false. A line longer than lim.MaxLine, a
// document longer than lim.MaxDocument, or a compressed input that expands
// beyond lim.MaxDecompressed ends the input with an error diagnostic at
// that line; the lines before it are read.
func split(br *bufio.Reader, name string, lim trace.Limits, send func(*unit) bool) error {
	lineNo := 0
	var off int64 // byte offset of the line
	first := true
	stop := func(le *trace.LimitError) error {
		send(&unit{line: lineNo, diags: []Diagnostic{{Severity: Error, File: name, Line: lineNo, Message: le.Error()}}})
		return nil
	}
	// Lines are read into scratch, and only a line that is not blank is
	// copied out, at its size.
	var scratch []byte
	var le *trace.LimitError // out of the loop: errors.As makes it escape
	for {
		line, n, err := trace.ReadLine(br, scratch, lim.MaxLine)
		scratch = line
		if n > 0 || err == nil {
			lineNo++
		}
		switch {
		case err == trace.ErrLimit:
			return stop(&trace.LimitError{What: fmt.Sprintf("line %d", lineNo), Limit: lim.MaxLine, Flag: "--max-line", Byte: off})
		case errors.As(err, &le):
			if n == 0 {
				lineNo++ // the line that was to start here
			}
			return stop(le)
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			line = bytes.Clone(line)
			// A pretty-printed document's first line is an unfinished
			// value ("{", or a member that opens an array); a damaged
			// line of a JSON Lines file still ends in "}", and is
			// reported on its own while the lines after it are read.
			if first && !bytes.HasSuffix(trimmed, []byte("}")) && !jsontext.Value(trimmed).IsValid(decodeOptions()...) {
				line = append(line, '\n')
				rest, rerr := trace.ReadAtMost(br, max(0, lim.MaxDocument-int64(len(line))))
				switch {
				case rerr == trace.ErrLimit:
					return stop(&trace.LimitError{What: fmt.Sprintf("the document that starts at line %d", lineNo), Limit: lim.MaxDocument, Flag: "--max-document", Byte: off})
				case errors.As(rerr, &le):
					return stop(le)
				case rerr != nil:
					return rerr
				}
				send(&unit{data: append(line, rest...), line: lineNo, doc: true})
				return nil
			}
			first = false
			if !send(&unit{data: line, line: lineNo}) {
				return nil
			}
		}
		off += n
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineStarts lists the byte offsets at which the lines of data begin.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// consume adds the spans of one unit to their traces, then writes the
// traces whose window closed.
func (im *Importer) consume(u *unit) {
	for _, d := range u.diags {
		im.diag(d)
	}
	for i := range u.spans {
		s := &u.spans[i]
		im.seq++
		s.seq = im.seq
		if _, done := im.written[s.trace]; done {
			im.diag(place(im.files, s, Diagnostic{Severity: Warning, TraceID: s.traceHex(), SpanID: s.idHex(),
				Message: "span arrived after its trace was written (more than --window spans after its root span): left out"}))
			continue
		}
		p := im.open[s.trace]
		if p == nil {
			p = &pending{rootAt: -1}
			im.open[s.trace] = p
			im.order = append(im.order, s.trace)
		}
		p.spans = append(p.spans, *s)
		im.spans++
		if !s.hasParent && p.rootAt < 0 {
			p.rootAt = im.spans
			im.rooted = append(im.rooted, rootMark{s.trace, im.spans})
		}
	}
	for len(im.rooted) > 0 && !im.opts.ByConversation && im.rooted[0].at+int64(im.opts.Window) <= im.spans {
		id := im.rooted[0].id
		im.rooted = im.rooted[1:]
		im.flush(id)
	}
}

// flush hands one open trace to the builders.
func (im *Importer) flush(id [16]byte) {
	p := im.open[id]
	if p == nil {
		return
	}
	delete(im.open, id)
	im.written[id] = struct{}{}
	// Drop flushed ids from the front of the arrival order, so that it
	// holds the open traces, not every trace of the input.
	for len(im.order) > 0 {
		if _, ok := im.open[im.order[0]]; ok {
			break
		}
		im.order = im.order[1:]
	}
	if im.err != nil {
		return
	}
	if im.jobs == nil {
		im.jobs = make(chan *buildJob)
		for range im.opts.Workers {
			im.builders.Go(func() {
				var scratch trace.Trace
				for j := range im.jobs {
					j.t, j.diags = build(j.id, j.spans, j.files, im.opts, &scratch)
					j.spans = nil
					close(j.done)
				}
			})
		}
	}
	j := &buildJob{id: id, spans: p.spans, files: im.files, done: make(chan struct{})}
	im.fifo = append(im.fifo, j)
	im.jobs <- j
	for len(im.fifo) > im.maxBuilds {
		im.finish()
	}
}

// finish waits for the oldest build and emits its trace.
func (im *Importer) finish() {
	j := im.fifo[0]
	im.fifo = im.fifo[1:]
	<-j.done
	for _, d := range j.diags {
		im.diag(d)
	}
	if j.t != nil && im.err == nil {
		if err := im.emit(j.t); err != nil {
			im.err = err
		}
	}
}

// Close writes every trace still open, in order of first arrival, and
// waits for every build. It must be called once the inputs are read.
func (im *Importer) Close() error {
	if im.opts.ByConversation {
		im.joinConversations()
	}
	ids := append([][16]byte(nil), im.order...)
	for _, id := range ids {
		im.flush(id)
	}
	for len(im.fifo) > 0 {
		im.finish()
	}
	if im.jobs != nil {
		close(im.jobs)
		im.builders.Wait()
		im.jobs = nil
	}
	im.order, im.rooted = nil, nil
	return im.err
}

// joinConversations moves the spans of every open trace into the first
// open trace (in arrival order) of its conversation.
func (im *Importer) joinConversations() {
	first := map[string][16]byte{}
	kept := im.order[:0]
	for _, id := range im.order {
		p := im.open[id]
		if p == nil {
			continue
		}
		conv := ""
		for i := range p.spans { // in arrival order
			if conv = p.spans[i].conversation; conv != "" {
				break
			}
		}
		if conv == "" {
			kept = append(kept, id)
			continue
		}
		f, ok := first[conv]
		if !ok {
			first[conv] = id
			kept = append(kept, id)
			continue
		}
		im.open[f].spans = append(im.open[f].spans, p.spans...)
		delete(im.open, id)
		im.written[id] = struct{}{}
	}
	im.order = kept
}

// ErrInvalidID is returned by ParseTraceID for anything but 32 hex digits.
var ErrInvalidID = errors.New("an OTel trace id is 32 hex digits")

// ParseTraceID checks that s is an OTel trace id as the importer writes it
// (32 lowercase hex digits), so that it is safe as a file name.
func ParseTraceID(s string) error {
	if len(s) != 32 {
		return ErrInvalidID
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ErrInvalidID
		}
	}
	if _, err := hex.DecodeString(s); err != nil {
		return ErrInvalidID
	}
	return nil
}
