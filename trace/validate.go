package trace

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxFindings is how many findings a Result keeps when
// Options.MaxFindings is zero; the rest are counted in Result.Omitted.
const DefaultMaxFindings = 1000

// maxSkeleton bounds the top-level members (everything but events and edges)
// handed to the library; beyond it the fast path's verdict stands alone.
const maxSkeleton = 8 << 20

// maxLibraryRechecks bounds how many flagged events and edges are handed to
// the library, so that a trace in which every event is wrong costs no more
// than a few seconds of library time.
const maxLibraryRechecks = 1000

// Options configure a check.
type Options struct {
	// Strict turns warnings (edges back in time, cycles) into errors.
	Strict bool
	// fastOnly leaves the library out, so that tests can compare the fast
	// path with it.
	fastOnly bool
	// memberLoopOnly reads every event and edge with the member loop,
	// leaving the plain path (plain.go) out, so that tests can require
	// the same results with and without it.
	memberLoopOnly bool
	// hashOnly resolves every edge end through the id table's hash,
	// leaving out the windows addEdgeNear looks in first, so that tests
	// can require the same results with and without them.
	hashOnly bool
	// FindingsOnly checks the trace without measuring it: the graph rules
	// (unique ids, edge ends, edges in time, cycles) are checked as
	// always, but agents, roles, trust labels and content references are
	// not filed and the graph is not measured, so Result.Report holds only
	// the ids, topology, costs, rewards, metrics and type counts. masrl
	// trace validate, which prints no measures, sets it.
	FindingsOnly bool
	// MaxFindings caps the findings kept; 0 means DefaultMaxFindings.
	MaxFindings int
	// SizeHint is the size of the trace in bytes if it is known (a
	// file's), else 0. The event-id table is then sized for the events the
	// trace is likely to hold, instead of growing as ids arrive: each
	// growth rehashes the table into fresh memory.
	SizeHint int64
}

// Result is the outcome of checking one trace.
type Result struct {
	// Findings holds up to Options.MaxFindings findings, sorted by position.
	Findings []Finding `json:"findings"`
	// Omitted counts findings left out of Findings.
	Omitted int `json:"omitted"`
	// Errors and Warnings count all findings, omitted ones included.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Report measures the trace (survey Table 14); it is computed from
	// whatever could be read, so it is partial when the JSON is malformed.
	Report Report `json:"stats"`
}

// Valid reports whether the trace has no errors.
func (r *Result) Valid() bool { return r.Errors == 0 }

// Validate checks the trace read from r against trace.schema.json and the
// rules a schema cannot state (unique event ids, edges between existing
// events, edges forward in time, an acyclic event graph) and measures it.
//
// The trace is read as a stream and never decoded whole: a hand-written
// scanner walks the one shape the schema allows, checks every keyword as
// it goes (with the tables generated from the schema, tables_gen.go) and
// keeps only what the graph checks and measures need (compact columns of
// event times, types and agents, and the edge list), which a second
// goroutine files while the scanner reads on. Decoding the whole document
// for a general JSON Schema library would cost an order of magnitude more
// time and memory on large traces; BENCHMARKS.md has the figures.
//
// The library keeps the last word where the fast path found a schema
// violation: the top-level object (with the events and edges arrays
// elided) and every event or edge in which it found one are validated by
// the library too. A location the library reports and the fast path missed is
// added to the findings; the differential tests (TestDifferential,
// FuzzDifferential) require the two to agree, so such an addition is a bug
// caught in the field rather than a silent pass.
//
// The returned error is non-nil only when r fails; problems with the
// trace, malformed JSON included, are findings.
func Validate(r io.Reader, opts Options) (*Result, error) {
	return NewValidator().Validate(r, opts)
}

// Validator checks traces with what checks can share: the schema compiled
// by the library (on first need) and the matchers built from the
// generated tables. It is safe for concurrent use; a batch of traces
// shares one, so that the setup is paid once, not per trace.
type Validator struct {
	tables   *tables
	batches  sync.Pool // *graphBatch
	checkers sync.Pool // *checker
	libOnce  sync.Once
	lib      *library
	libErr   error
}

// NewValidator returns a Validator.
func NewValidator() *Validator { return &Validator{tables: newTables()} }

// Validate is the package's Validate with v's shared state.
func (v *Validator) Validate(r io.Reader, opts Options) (*Result, error) {
	ra, stop := newReadahead(r)
	defer stop()
	c := newChecker(v, opts)
	switch {
	case ra != nil:
		c.s = newChunkScanner(ra)
	default:
		c.s = newScanner(r)
	}
	res, err := c.run()
	v.release(c)
	return res, err
}

// ValidateBytes validates a trace held in memory, such as a line of a JSON
// Lines batch, without copying it. The error is always nil; it is there
// for symmetry with Validate.
func (v *Validator) ValidateBytes(data []byte, opts Options) (*Result, error) {
	if opts.SizeHint == 0 {
		opts.SizeHint = int64(len(data))
	}
	c := newChecker(v, opts)
	c.s = newBytesScanner(data)
	res, err := c.run()
	v.release(c)
	return res, err
}

// maxReusedElems and maxReusedBytes bound the events and edges of a trace
// whose checker is kept for reuse, and the bytes of its buffers, and so
// the memory a Validator holds between traces.
const (
	maxReusedElems = 1 << 14
	maxReusedBytes = 1 << 20
)

// release keeps c for the next trace if its trace was small.
func (v *Validator) release(c *checker) {
	bufs := cap(c.g.ids.arena) + cap(c.elemBuf) + cap(c.skeleton) + cap(c.memberBuf)
	if c.g.ids.n+c.g.src.n <= maxReusedElems && bufs <= maxReusedBytes {
		v.checkers.Put(c)
	}
}

// run checks the trace the checker's scanner reads.
func (c *checker) run() (*Result, error) {
	c.start()
	err := c.document()
	found, dropped := c.feed.stop()
	for _, f := range found {
		c.addAt(pos{line: f.Line, col: f.Col}, f.Pointer, f.Severity, f.Rule, f.Message)
	}
	c.nerr += dropped
	c.omitted += dropped
	var se *syntaxError
	switch {
	case errors.As(err, &se):
		if c.s.rerr != nil {
			return nil, c.s.rerr
		}
		c.addAt(se.at, se.pointer, Error, RuleSyntax, se.msg)
	case err != nil:
		return nil, err
	}
	if c.s.rerr != nil {
		return nil, c.s.rerr
	}
	if err == nil {
		c.checkTopWithLibrary()
	}
	c.g.finish(c, err == nil)
	return c.result(), nil
}

// Measure reads a trace and returns its measurements (survey Table 14 and
// the graph measures of trace/README.md). It fails if the trace has
// errors: measurements of an invalid trace would be misleading.
func Measure(r io.Reader) (Report, error) {
	res, err := Validate(r, Options{})
	if err != nil {
		return Report{}, err
	}
	if !res.Valid() {
		for _, f := range res.Findings {
			if f.Severity == Error {
				return res.Report, fmt.Errorf("trace has %d errors, the first at %s", res.Errors, f)
			}
		}
	}
	return res.Report, nil
}
