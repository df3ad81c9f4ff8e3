package trace

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/masrl/masrl/internal/suggest"
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
// it goes and keeps only what the graph checks and measures need (compact
// columns of event times, types and agents, and the edge list), which a
// second goroutine files while the scanner reads on. That fast path checks
// a 1,000,000-event, 210 MB trace in under a second of CPU, about half a
// second on two cores, and under 128 MB (with the soft memory limit
// `masrl trace` sets); the jsonschema
// library, run on the whole decoded document, needs 8.5 s of CPU and 2.4 GB
// (bench/trace/RESULTS.md).
//
// The library keeps the last word where it is cheap: the top-level object,
// with the events and edges arrays elided, is always validated by it, and
// so is every event or edge in which the fast path found a schema
// violation. A location the library reports and the fast path missed is
// added to the findings; the differential tests (TestDifferential,
// FuzzDifferential) require the two to agree, so such an addition is a bug
// caught in the field rather than a silent pass.
//
// The returned error is non-nil only when r fails; problems with the
// trace, malformed JSON included, are findings.
func Validate(r io.Reader, opts Options) (*Result, error) {
	ra, stop := newReadahead(r)
	defer stop()
	c := newChecker(r, ra, opts)
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

	// Matchers of the strings most tokens of a trace are: property names
	// of events and edges in bit order, and the two type vocabularies.
	eventKeys, edgeKeys   *wordMatcher
	eventTypes, edgeTypes *wordMatcher

	// idSeed is the seed of the graph's id table, copied before the graph
	// goroutine starts, so that the scanner can hash edge ends for it.
	idSeed maphash.Seed

	lib    *library
	libErr error
	g      graph
	feed   *graphFeed
	rep    *Report
}

// newChecker returns a checker of r, read through ra if it is not nil.
func newChecker(r io.Reader, ra *readahead, opts Options) *checker {
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = DefaultMaxFindings
	}
	c := &checker{s: newScanner(r), opts: opts}
	if ra != nil {
		c.s = newChunkScanner(ra)
	}
	ek := eventKeys()
	c.eventKeys = newWordMatcher(ek[:])
	c.edgeKeys = newWordMatcher([]string{"src", "dst", "type"})
	c.eventTypes = newWordMatcher(eventTypeList())
	c.edgeTypes = newWordMatcher(edgeTypeList())
	c.s.where = c.pointer
	c.g.init(opts.SizeHint)
	c.idSeed = c.g.ids.seed
	c.rep = newReport()
	c.feed = startGraphFeed(&c.g, opts.MaxFindings)
	return c
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
func (c *checker) addAt(at pos, ptr string, sev Severity, rule, msg string) {
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
	if _, ok := c.s.peek(); ok {
		return c.s.errorf("unexpected data after the top-level value")
	}
	return nil
}

// typeOK checks that the value at the scanner has the wanted JSON type.
// On a mismatch it records the schema finding, skips the value and returns
// false. depth is the nesting depth of the value.
func (c *checker) typeOK(want string, depth int) (bool, error) {
	ch, ok := c.s.peek()
	if !ok {
		return false, c.s.unexpected("value")
	}
	if !isValueStart(ch) {
		return false, c.s.unexpected("value")
	}
	got := kindOf(ch)
	if got == want {
		return true, nil
	}
	at := c.s.here()
	if err := c.skipValue(depth); err != nil {
		return false, err
	}
	c.schemaf(at, "got %s, want %s", got, want)
	return false, nil
}

func isValueStart(ch byte) bool {
	switch ch {
	case '{', '[', '"', 't', 'f', 'n', '-':
		return true
	}
	return '0' <= ch && ch <= '9'
}

// stringValue reads a string-typed value into c.s.str; ok is false when the
// value was not a string. minLen1 enforces "minLength": 1.
func (c *checker) stringValue(minLen1 bool, depth int) (ok bool, err error) {
	if ch, _ := c.s.peek(); ch != '"' {
		if ok, err := c.typeOK("string", depth); !ok || err != nil {
			return false, err
		}
	}
	at := c.s.here()
	if err := c.s.readString(); err != nil {
		return false, err
	}
	c.noteUTF8(at)
	if minLen1 && len(c.s.str) == 0 {
		c.schemaf(at, "length must be >= 1, but got 0")
	}
	return true, nil
}

func (c *checker) noteUTF8(at pos) {
	if c.s.badUTF8 {
		c.elemTainted = true
		c.topTainted = true
		c.errorf(at, RuleUTF8, "string is not valid UTF-8")
	}
}

// enumValue reads a string that must be one of vals; it returns the value's
// index in vals, or -1.
// vals lists the allowed values for messages; it is called only on failure.
// m, which may be nil, matches the common values without reading them
// as strings.
func (c *checker) enumValue(m *wordMatcher, vals func() []string, code func(string) int, depth int) (int, error) {
	ch, ok := c.s.peek()
	if !ok || !isValueStart(ch) {
		return -1, c.s.unexpected("value")
	}
	if ch == '"' {
		if k := c.s.match(m); k > 0 {
			return k - 1, nil
		}
	}
	at := c.s.here()
	if ch != '"' {
		if err := c.skipValue(depth); err != nil {
			return -1, err
		}
		c.schemaf(at, "got %s, want string", kindOf(ch))
		return -1, nil
	}
	if err := c.s.readString(); err != nil {
		return -1, err
	}
	c.noteUTF8(at)
	got := bytesToString(c.s.str)
	k := code(got)
	if k < 0 {
		allowed := vals()
		msg := fmt.Sprintf("value %q is not one of %s", got, quoteList(allowed))
		if n := suggest.Nearest(got, allowed); n != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", n)
		}
		c.schemaf(at, "%s", msg)
	}
	return k, nil
}

// numberValue reads a number-typed value; min0 enforces "minimum": 0.
func (c *checker) numberValue(min0 bool, depth int) (val float64, ok bool, err error) {
	if ok, err := c.typeOK("number", depth); !ok || err != nil {
		return 0, false, err
	}
	at := c.s.here()
	n, err := c.s.readNumber()
	if err != nil {
		return 0, false, err
	}
	if n.tooLarge {
		c.elemTainted = true
		c.topTainted = true
		c.errorf(at, RuleRange, "number is too large for a 64-bit float")
		return 0, false, nil
	}
	if min0 && n.negative {
		c.schemaf(at, "must be >= 0 but found %s", strconv.FormatFloat(n.val, 'g', -1, 64))
	}
	return n.val, true, nil
}

// boolValue reads a boolean-typed value.
func (c *checker) boolValue(depth int) (val, ok bool, err error) {
	if ok, err := c.typeOK("boolean", depth); !ok || err != nil {
		return false, false, err
	}
	ch, _ := c.s.peek()
	if ch == 't' {
		return true, true, c.s.readLiteral("true")
	}
	return false, true, c.s.readLiteral("false")
}

// keySet detects duplicate keys in one object. Known keys use a bit mask;
// other keys a short list, then a map, so that small objects cost nothing.
type keySet struct {
	mask  uint64
	other []string
	big   map[string]struct{}
}

// addOther adds an unknown key and reports whether it was already there.
func (k *keySet) addOther(key string) bool {
	if k.big != nil {
		if _, dup := k.big[key]; dup {
			return true
		}
		k.big[key] = struct{}{}
		return false
	}
	for _, o := range k.other {
		if o == key {
			return true
		}
	}
	k.other = append(k.other, key)
	if len(k.other) > 16 {
		k.big = make(map[string]struct{}, 32)
		for _, o := range k.other {
			k.big[o] = struct{}{}
		}
	}
	return false
}

// member reads `"key":` of an object member. It returns the key (valid
// until the next string is read) and its position.
func (c *checker) member() (string, pos, error) {
	if _, ok := c.s.peek(); !ok {
		return "", pos{}, c.s.unexpected("string (object key)")
	}
	at := c.s.here()
	if err := c.s.readString(); err != nil {
		return "", at, err
	}
	if c.s.badUTF8 {
		c.elemTainted = true
		c.topTainted = true
		c.errorf(at, RuleUTF8, "object key is not valid UTF-8")
	}
	// Read the ':' first: it may refill the buffer, which moves the key
	// out of it (into the scanner's own copy).
	if err := c.s.expect(':', "':' after object key"); err != nil {
		return "", at, err
	}
	return bytesToString(c.s.str), at, nil
}

// memberBit reads `"key":` of an object member whose known keys m lists in
// bit order. For a known key it returns the key's bit; for any other, 0 and
// the key as member returns it. Known keys written plainly are matched in
// the buffer; others (escaped, or at the end of the buffer) are read by
// member, and the caller maps them to bits.
func (c *checker) memberBit(m *wordMatcher) (int, string, pos, error) {
	if ch, ok := c.s.peek(); ok && ch == '"' {
		at := c.s.here()
		if code := c.s.match(m); code != 0 {
			if err := c.s.expect(':', "':' after object key"); err != nil {
				return 0, "", at, err
			}
			return 1 << (code - 1), "", at, nil
		}
	}
	key, at, err := c.member()
	return 0, key, at, err
}

// duplicate records a key given twice. The library keeps the last value of
// a duplicated key, so the element is not handed to it.
func (c *checker) duplicate(at pos, key string) {
	c.elemTainted = true
	c.topTainted = true
	c.push(key)
	c.errorf(at, RuleDuplicate, "duplicate key %q (JSON parsers disagree on which value wins)", key)
	c.pop()
}

// skipValue reads any value, checking syntax, nesting depth, duplicate keys,
// UTF-8 and number range, and keeps nothing.
func (c *checker) skipValue(depth int) error {
	if depth > MaxDepth {
		return c.s.errorf("nesting deeper than %d levels", MaxDepth)
	}
	ch, ok := c.s.peek()
	if !ok {
		return c.s.unexpected("value")
	}
	switch ch {
	case '{':
		c.s.i++
		if !c.s.first('}') {
			return nil
		}
		var keys keySet
		for {
			key, at, err := c.member()
			if err != nil {
				return err
			}
			k := strings.Clone(key)
			if keys.addOther(k) {
				c.duplicate(at, k)
			}
			c.push(k)
			err = c.skipValue(depth + 1)
			c.pop()
			if err != nil {
				return err
			}
			if more, err := c.s.more('}'); err != nil || !more {
				return err
			}
		}
	case '[':
		c.s.i++
		if !c.s.first(']') {
			return nil
		}
		for i := 0; ; i++ {
			c.pushIdx(i)
			err := c.skipValue(depth + 1)
			c.pop()
			if err != nil {
				return err
			}
			if more, err := c.s.more(']'); err != nil || !more {
				return err
			}
		}
	case '"':
		at := c.s.here()
		if err := c.s.readString(); err != nil {
			return err
		}
		c.noteUTF8(at)
		return nil
	case 't':
		return c.s.readLiteral("true")
	case 'f':
		return c.s.readLiteral("false")
	case 'n':
		return c.s.readLiteral("null")
	}
	if ch == '-' || '0' <= ch && ch <= '9' {
		at := c.s.here()
		n, err := c.s.readNumber()
		if err != nil {
			return err
		}
		if n.tooLarge {
			c.elemTainted = true
			c.topTainted = true
			c.errorf(at, RuleRange, "number is too large for a 64-bit float")
		}
		return nil
	}
	return c.s.unexpected("value")
}

// Bits of the known top-level properties.
const (
	topTraceID = 1 << iota
	topTaskID
	topSystem
	topTopology
	topEvents
	topEdges
	topRewards
	topCosts
	topMetrics
)

// topObject reads the trace object.
func (c *checker) topObject() error {
	start := c.s.here()
	c.s.i++
	var keys keySet
	var extra []string
	var extraAt pos
	if c.s.first('}') {
		for {
			c.startMember()
			key, at, err := c.member()
			if err != nil {
				return err
			}
			bit := 0
			switch key {
			case "trace_id":
				bit = topTraceID
			case "task_id":
				bit = topTaskID
			case "system":
				bit = topSystem
			case "topology":
				bit = topTopology
			case "events":
				bit = topEvents
			case "edges":
				bit = topEdges
			case "rewards":
				bit = topRewards
			case "costs":
				bit = topCosts
			case "metrics":
				bit = topMetrics
			}
			k := strings.Clone(key)
			if bit != 0 {
				if keys.mask&uint64(bit) != 0 {
					c.duplicate(at, k)
				}
				keys.mask |= uint64(bit)
			} else {
				if keys.addOther(k) {
					c.duplicate(at, k)
				}
				if len(extra) == 0 {
					extraAt = at
				}
				extra = append(extra, k)
			}
			if err := c.topMember(bit, k); err != nil {
				return err
			}
			if more, err := c.s.more('}'); err != nil || !more {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	if len(extra) > 0 {
		c.schemaf(extraAt, "additional properties %s not allowed", quoteList(extra))
	}
	c.required(start, keys.mask, prop{topTraceID, "trace_id"}, prop{topTaskID, "task_id"}, prop{topEvents, "events"},
		prop{topEdges, "edges"}, prop{topRewards, "rewards"}, prop{topCosts, "costs"})
	return nil
}

// prop is a property's bit in a keySet mask and its name.
type prop struct {
	bit  uint64
	name string
}

// required reports, at the object at, the required properties whose bits
// are not in have.
func (c *checker) required(at pos, have uint64, props ...prop) {
	var missing []string
	for _, p := range props {
		if have&p.bit == 0 {
			missing = append(missing, p.name)
		}
	}
	if len(missing) > 0 {
		c.schemaf(at, "missing properties %s", quoteList(missing))
	}
}

// startMember begins capturing a top-level member for the library.
func (c *checker) startMember() {
	if !c.skeletonSkip {
		c.s.startCapture(&c.memberBuf)
	}
}

// topMember reads the value of one top-level member.
func (c *checker) topMember(bit int, key string) error {
	c.push(key)
	defer c.pop()
	if bit == topEvents || bit == topEdges {
		if ch, ok := c.s.peek(); ok && ch == '[' {
			// The array is checked by the fast path alone; the library sees
			// a placeholder that passes the same top-level keywords.
			c.s.endCapture()
			c.appendSkeleton([]byte(fmt.Sprintf("%q:%s", key, placeholder(bit))))
			if bit == topEvents {
				err := c.eventsArray()
				c.feed.flush(true)
				return err
			}
			err := c.edgesArray()
			c.feed.flush(false)
			return err
		}
	}
	var err error
	switch bit {
	case topTraceID, topTaskID:
		if ok, e := c.stringValue(true, 2); ok && e == nil {
			if bit == topTraceID {
				c.rep.TraceID = string(c.s.str)
			} else {
				c.rep.TaskID = string(c.s.str)
			}
		} else {
			err = e
		}
	case topSystem:
		if ok, e := c.stringValue(false, 2); ok && e == nil {
			c.rep.System = string(c.s.str)
		} else {
			err = e
		}
	case topTopology:
		tops := Topologies()
		k, e := c.enumValue(nil, Topologies, func(s string) int {
			for i, t := range tops {
				if t == s {
					return i
				}
			}
			return -1
		}, 2)
		if k >= 0 {
			c.rep.Topology = tops[k]
		}
		err = e
	case topEvents, topEdges:
		_, err = c.typeOK("array", 2)
	case topRewards:
		err = c.numberMap(false, func(k string, v float64) {
			c.rep.Rewards = append(c.rep.Rewards, Channel{Name: k, Value: v})
		})
	case topMetrics:
		err = c.numberMap(false, func(k string, v float64) {
			c.rep.Metrics = append(c.rep.Metrics, Channel{Name: k, Value: v})
		})
	case topCosts:
		err = c.numberMap(true, func(k string, v float64) {
			c.rep.Costs.set(k, v)
		})
	default:
		err = c.skipValue(2)
	}
	if err != nil {
		return err
	}
	if c.s.capture != nil {
		c.appendSkeleton(c.s.endCapture())
	}
	return nil
}

func placeholder(bit int) string {
	if bit == topEvents {
		return `[{"id":"e","t":0,"type":"spawn","agent":"a"}]`
	}
	return "[]"
}

func (c *checker) appendSkeleton(member []byte) {
	if c.skeletonSkip {
		return
	}
	if len(c.skeleton)+len(member) > maxSkeleton {
		c.skeletonSkip = true
		c.skeleton = nil
		return
	}
	if len(c.skeleton) > 0 {
		c.skeleton = append(c.skeleton, ',')
	}
	c.skeleton = append(c.skeleton, member...)
}

// numberMap reads rewards, metrics or costs: an object whose values must
// all be numbers. For costs (isCosts), tokens and wall_clock_s are required
// and the four known entries must be >= 0.
func (c *checker) numberMap(isCosts bool, add func(string, float64)) error {
	if ok, err := c.typeOK("object", 2); !ok || err != nil {
		return err
	}
	start := c.s.here()
	c.s.i++
	var keys keySet
	have := 0
	if c.s.first('}') {
		for {
			key, at, err := c.member()
			if err != nil {
				return err
			}
			k := strings.Clone(key)
			if keys.addOther(k) {
				c.duplicate(at, k)
			}
			min0 := false
			if isCosts {
				switch k {
				case "tokens":
					have |= 1
					min0 = true
				case "wall_clock_s":
					have |= 2
					min0 = true
				case "tool_calls", "messages":
					min0 = true
				}
			}
			c.push(k)
			v, ok, err := c.numberValue(min0, 3)
			c.pop()
			if err != nil {
				return err
			}
			if ok {
				add(k, v)
			}
			if more, err := c.s.more('}'); err != nil || !more {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	if isCosts {
		c.required(start, uint64(have), prop{1, "tokens"}, prop{2, "wall_clock_s"})
	}
	return nil
}

// eventsArray reads the events array (the scanner is at its '[').
func (c *checker) eventsArray() error {
	at := c.s.here()
	c.s.i++
	if !c.s.first(']') {
		c.schemaf(at, "minItems: got 0, want 1")
		return nil
	}
	for i := 0; ; i++ {
		c.pushIdx(i)
		err := c.event(i)
		c.pop()
		if err != nil {
			return err
		}
		if more, err := c.s.more(']'); err != nil || !more {
			return err
		}
	}
}

// Bits of the known event properties.
const (
	evID = 1 << iota
	evT
	evType
	evAgent
	evRole
	evFrom
	evTo
	evTool
	evContentRef
	evTrusted
)

// eventKeys returns the known event properties in the order of their bits.
func eventKeys() [10]string {
	return [...]string{"id", "t", "type", "agent", "role", "from", "to", "tool", "content_ref", "trusted"}
}

// eventRecord is what the graph and the report keep of one event.
type eventRecord struct {
	id         span
	t          float64
	typ        int
	agent      span
	role       span
	to         span
	contentRef span
	trusted    int8 // -1 absent, 0 false, 1 true
	have       int
	at         pos
	idAt       pos
	index      int
}

// event reads one event (the scanner is before its first byte).
func (c *checker) event(i int) error {
	ok, err := c.typeOK("object", 3)
	if !ok || err != nil {
		c.rep.countEvent(-1)
		return err
	}
	ev := eventRecord{t: math.NaN(), typ: -1, trusted: -1, at: c.s.here()}
	c.beginElem()
	c.s.i++
	var keys keySet
	if c.s.first('}') {
		for {
			bit, key, at, err := c.memberBit(c.eventKeys)
			if err != nil {
				return err
			}
			if bit == 0 {
				switch key {
				case "id":
					bit = evID
				case "t":
					bit = evT
				case "type":
					bit = evType
				case "agent":
					bit = evAgent
				case "role":
					bit = evRole
				case "from":
					bit = evFrom
				case "to":
					bit = evTo
				case "tool":
					bit = evTool
				case "content_ref":
					bit = evContentRef
				case "trusted":
					bit = evTrusted
				}
			}
			if bit == 0 {
				k := strings.Clone(key)
				if keys.addOther(k) {
					c.duplicate(at, k)
				}
				c.push(k)
				err = c.skipValue(4)
				c.pop()
			} else {
				if keys.mask&uint64(bit) != 0 {
					c.duplicate(at, eventKeys()[bits.TrailingZeros(uint(bit))])
				}
				keys.mask |= uint64(bit)
				err = c.eventField(bit, &ev)
			}
			if err != nil {
				return err
			}
			if more, err := c.s.more('}'); err != nil || !more {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	c.endElem()
	ev.have = int(keys.mask)
	c.required(ev.at, uint64(ev.have), prop{evID, "id"}, prop{evT, "t"}, prop{evType, "type"}, prop{evAgent, "agent"})
	if c.elemSchema > 0 {
		c.recheck(true, ev.at)
	}
	c.inElem = false
	c.rep.countEvent(ev.typ)
	ev.index = i
	c.feed.event(&ev)
	return nil
}

// eventField reads the value of a known event property into ev. Strings
// are copied into the graph feed's current batch, which carries them to
// the graph.
func (c *checker) eventField(bit int, ev *eventRecord) error {
	c.push(eventKeys()[bits.TrailingZeros(uint(bit))])
	err := c.eventValue(bit, ev)
	c.pop()
	return err
}

// eventValue reads the value of event property bit into ev.
func (c *checker) eventValue(bit int, ev *eventRecord) error {
	switch bit {
	case evT:
		v, ok, err := c.numberValue(true, 4)
		if ok {
			ev.t = v
		}
		return err
	case evType:
		k, err := c.enumValue(c.eventTypes, eventTypeList, eventTypeCode, 4)
		ev.typ = k
		return err
	case evTrusted:
		v, ok, err := c.boolValue(4)
		if ok {
			ev.trusted = 0
			if v {
				ev.trusted = 1
			}
		}
		return err
	}
	if bit == evID {
		ev.idAt, _ = c.peekPos()
	}
	ok, err := c.stringValue(bit == evID || bit == evAgent, 4)
	if !ok || err != nil {
		return err
	}
	v := c.feed.keep(c.s.str)
	switch bit {
	case evID:
		ev.id = v
	case evAgent:
		ev.agent = v
	case evRole:
		ev.role = v
	case evTo:
		ev.to = v
	case evContentRef:
		ev.contentRef = v
	}
	return nil
}

// edgesArray reads the edges array (the scanner is at its '[').
func (c *checker) edgesArray() error {
	c.s.i++
	if !c.s.first(']') {
		return nil
	}
	for i := 0; ; i++ {
		c.pushIdx(i)
		err := c.edge(i)
		c.pop()
		if err != nil {
			return err
		}
		if more, err := c.s.more(']'); err != nil || !more {
			return err
		}
	}
}

// edgeRecord is what the graph keeps of one edge.
type edgeRecord struct {
	index    int
	src, dst span
	srcAt    pos
	// srcHash and dstHash are the ends' hashes in the graph's id table,
	// computed on the scanner's goroutine, where the id is in the cache
	// and which has time to spare while the graph resolves edges.
	srcHash, dstHash uint64
	dstAt            pos
	at               pos
	typ              int
	ok               bool // src and dst are non-empty strings
}

// edge reads one edge.
func (c *checker) edge(i int) error {
	ok, err := c.typeOK("object", 3)
	if !ok || err != nil {
		c.rep.countEdge(-1)
		c.feed.edge(&edgeRecord{index: i, typ: -1})
		return err
	}
	start := c.s.here()
	c.beginElem()
	c.s.i++
	ed := edgeRecord{index: i, typ: -1}
	var keys keySet
	var extra []string
	var extraAt pos
	srcOK, dstOK := false, false
	if c.s.first('}') {
		for {
			bit, key, at, err := c.memberBit(c.edgeKeys)
			if err != nil {
				return err
			}
			if bit == 0 {
				switch key {
				case "src":
					bit = 1
				case "dst":
					bit = 2
				case "type":
					bit = 4
				}
			}
			var k string
			switch bit {
			case 1:
				k = "src"
			case 2:
				k = "dst"
			case 4:
				k = "type"
			default:
				k = strings.Clone(key)
			}
			if bit == 0 {
				if keys.addOther(k) {
					c.duplicate(at, k)
				}
				if len(extra) == 0 {
					extraAt = at
				}
				extra = append(extra, k)
				c.push(k)
				err = c.skipValue(4)
				c.pop()
			} else {
				if keys.mask&uint64(bit) != 0 {
					c.duplicate(at, k)
				}
				keys.mask |= uint64(bit)
				c.push(k)
				switch bit {
				case 1, 2:
					vat, _ := c.peekPos()
					var ok bool
					ok, err = c.stringValue(true, 4)
					if ok && len(c.s.str) > 0 {
						v := c.feed.keep(c.s.str)
						if bit == 1 {
							ed.src, ed.srcAt, srcOK = v, vat, true
							ed.srcHash = maphash.Bytes(c.idSeed, c.s.str)
						} else {
							ed.dst, ed.dstAt, dstOK = v, vat, true
							ed.dstHash = maphash.Bytes(c.idSeed, c.s.str)
						}
					}
				case 4:
					ed.typ, err = c.enumValue(c.edgeTypes, edgeTypeList, edgeTypeCode, 4)
				}
				c.pop()
			}
			if err != nil {
				return err
			}
			if more, err := c.s.more('}'); err != nil || !more {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	c.endElem()
	if len(extra) > 0 {
		c.schemaf(extraAt, "additional properties %s not allowed", quoteList(extra))
	}
	c.required(start, keys.mask, prop{1, "src"}, prop{2, "dst"}, prop{4, "type"})
	if c.elemSchema > 0 {
		c.recheck(false, start)
	}
	c.inElem = false
	ed.ok = srcOK && dstOK
	ed.at = start
	c.rep.countEdge(ed.typ)
	c.feed.edge(&ed)
	return nil
}

// beginElem starts an event or edge: its findings and raw bytes are
// collected for the library.
func (c *checker) beginElem() {
	c.elemSchema, c.elemTainted, c.inElem = 0, false, true
	c.elemPtrs = c.elemPtrs[:0]
	c.s.startCapture(&c.elemBuf)
}

// endElem stops capturing the element's bytes; its findings stay attributed
// to it until the caller has rechecked them.
func (c *checker) endElem() { c.elem = c.s.endCapture() }

// peekPos returns the position of the next value.
func (c *checker) peekPos() (pos, bool) {
	_, ok := c.s.peek()
	return c.s.here(), ok
}
