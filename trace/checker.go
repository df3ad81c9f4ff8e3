package trace

import (
	"fmt"
	"math"

	"github.com/masrl/masrl/internal/diag"
)

// checker is the state of one fast-path validation.
type checker struct {
	s    *scanner
	opts Options
	path []pathElem

	findings []Finding
	omitted  int
	nerr     int
	nwarn    int

	// Per event or edge: schema findings in it, whether it held something
	// the library decodes differently (duplicate keys, bad UTF-8, huge
	// numbers), and its raw bytes for the library.
	elemSchema  int
	elemTainted bool
	elemBuf     []byte
	elem        []byte // the element's bytes, valid until the next read
	rechecks    int

	// The top-level members other than events and edges, for the library.
	skeleton     []byte
	memberBuf    []byte
	topTainted   bool
	skeletonSkip bool

	// Schema-finding pointers of the current element and of the top level,
	// so that the library adds only what the fast path did not report.
	inElem   bool
	elemPtrs []string
	topPtrs  []string

	// v holds what checks share: the library and the schema's tables.
	v *Validator
	*tables

	// plainObj holds what the plain path read of the current event or edge.
	plainObj plainObj
	// eventKeys and edgeKeys are the last two keys the plain path found
	// at each place of an event and of an edge.
	eventKeys, edgeKeys [maxPlainMembers][2]*matchWord
	// eventKeep is the event members the plain path keeps for
	// plainEvent: with FindingsOnly only the id, the time and the type
	// reach the graph and the report, and the other members are read
	// and checked but not kept.
	eventKeep int

	g    graph
	feed *graphFeed
	rep  *Report
}

// tables are the objects of the schema (tables_gen.go) as the member loop
// reads them, and matchers of the two type vocabularies, the strings most
// tokens of a trace are. They are read-only once built.
type tables struct {
	topObj, eventObj, edgeObj, costsObj, numbersObj *objectSpec
	eventTypes, edgeTypes                           *wordMatcher
	// eventKinds and edgeKinds are the property sets the plain path
	// (plain.go) reads events and edges with.
	eventKinds, edgeKinds plainKinds
}

func newTables() *tables {
	t := &tables{
		topObj: topSpec(), eventObj: eventSpec(), edgeObj: edgeSpec(), costsObj: costsSpec(), numbersObj: numbersSpec(),
		eventTypes: newWordMatcher(eventTypeList()), edgeTypes: newWordMatcher(edgeTypeList()),
	}
	t.eventKinds = plainKinds{
		strings: evStrings, enums: evEnums, numbers: evNumbers, booleans: evBooleans,
		nonEmpty: evNonEmpty, nonNegative: evNonNegative, enum: t.eventTypes, code: eventTypeCode,
	}
	t.edgeKinds = plainKinds{
		strings: edStrings, enums: edEnums, numbers: edNumbers, booleans: edBooleans,
		nonEmpty: edNonEmpty, nonNegative: edNonNegative, enum: t.edgeTypes, code: edgeTypeCode,
	}
	return t
}

// newChecker returns a checker; the caller sets its scanner, then calls
// start.
func newChecker(v *Validator, opts Options) *checker {
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = DefaultMaxFindings
	}
	if c, ok := v.checkers.Get().(*checker); ok {
		c.reuse(opts)
		return c
	}
	return &checker{opts: opts, v: v, tables: v.tables}
}

// reuse empties c for another trace, keeping the memory of its buffers,
// its graph's id table and columns: a JSON Lines batch checks many small
// traces, and allocating and clearing that memory afresh for each was a
// tenth of the batch's time.
func (c *checker) reuse(opts Options) {
	c.g.reuse()
	*c = checker{opts: opts, v: c.v, tables: c.tables,
		path: c.path[:0], elemBuf: c.elemBuf[:0], skeleton: c.skeleton[:0], memberBuf: c.memberBuf[:0],
		eventKeys: c.eventKeys, edgeKeys: c.edgeKeys, g: c.g}
}

// start prepares the graph and starts its feed.
func (c *checker) start() {
	opts := c.opts
	c.s.where = c.pointer
	c.g.init(opts.SizeHint)
	c.g.findingsOnly = opts.FindingsOnly
	c.g.hashOnly = opts.hashOnly
	c.eventKeep = -1
	if opts.FindingsOnly {
		c.eventKeep = evID | evT | evEnums
	}
	c.rep = newReport()
	c.feed = startGraphFeed(&c.g, opts.MaxFindings, opts.SizeHint, &c.v.batches)
}

func (c *checker) push(key string) { c.path = append(c.path, pathElem{key: key, idx: -1}) }
func (c *checker) pushIdx(i int)   { c.path = append(c.path, pathElem{idx: i}) }
func (c *checker) pop()            { c.path = c.path[:len(c.path)-1] }
func (c *checker) pointer() string { return pointerOf(c.path) }
func (c *checker) errorf(at pos, rule, format string, args ...any) {
	c.addAt(at, c.pointer(), Error, rule, fmt.Sprintf(format, args...))
}

// schemaf records a schema violation at the current path.
func (c *checker) schemaf(at pos, format string, args ...any) {
	c.elemSchema++
	ptr := c.pointer()
	if c.inElem {
		c.elemPtrs = append(c.elemPtrs, ptr)
	} else {
		c.topPtrs = append(c.topPtrs, ptr)
	}
	c.addAt(at, ptr, Error, RuleSchema, fmt.Sprintf(format, args...))
}

// addAt records a finding, or counts it once the cap is reached.
func (c *checker) addAt(at pos, ptr string, sev diag.Severity, rule, msg string) {
	if sev == Warning && c.opts.Strict {
		sev = Error
	}
	if sev == Error {
		c.nerr++
	} else {
		c.nwarn++
	}
	if len(c.findings) >= c.opts.MaxFindings {
		c.omitted++
		return
	}
	c.findings = append(c.findings, Finding{Pointer: ptr, Line: at.line, Col: at.col, Severity: sev, Rule: rule, Message: msg})
}

func (c *checker) result() *Result {
	sortFindings(c.findings)
	if c.omitted > 0 {
		last := Finding{Line: math.MaxInt32, Severity: Warning, Rule: RuleTruncated,
			Message: fmt.Sprintf("%d more findings not shown", c.omitted)}
		if n := len(c.findings); n > 0 {
			last.Line, last.Col = c.findings[n-1].Line, c.findings[n-1].Col
		}
		c.findings = append(c.findings, last)
	}
	return &Result{Findings: c.findings, Omitted: c.omitted, Errors: c.nerr, Warnings: c.nwarn, Report: *c.rep}
}

// document reads the single top-level value and checks that nothing follows.
func (c *checker) document() error {
	ch, ok := c.s.peek()
	if !ok {
		return c.s.unexpected("a JSON object")
	}
	if ch == '{' {
		if err := c.topObject(); err != nil {
			return err
		}
	} else {
		at := c.s.here()
		if err := c.skipValue(1); err != nil {
			return err
		}
		c.schemaf(at, "got %s, want object", kindOf(ch))
		c.skeletonSkip = true
	}
	if ch, ok := c.s.peek(); ok {
		if ch == '{' {
			// The likely cause: a file of one trace per line.
			return c.s.errorf("unexpected data after the top-level value: a file of one trace per line is JSON Lines (masrl trace reads it as such when it is named .jsonl or .ndjson, or with --jsonl)")
		}
		return c.s.errorf("unexpected data after the top-level value")
	}
	return nil
}
