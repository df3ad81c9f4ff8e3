package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/masrl/masrl/trace"
)

// parser reads ExportTraceServiceRequest values token by token. It decodes
// only ids, times and the attributes the mapping reads (wantAttr) and
// skips every other value unread, so prompt and completion text never
// becomes a Go string, and a line costs little more than a scan.
type parser struct {
	dec   jsontext.Decoder
	file  int32
	name  string
	pos   func(off int64) (line, col int)
	last  int64 // offset of the last value read by str or number
	spans []span
	diags []Diagnostic
	tmp   []byte
	// names interns the short strings that repeat from span to span
	// (operation names, agent, tool and model names), so that each is
	// allocated once per worker, not once per span.
	names map[string]string
	b64   [24]byte
	// limits are the importer's, with defaults filled in; zstd decodes
	// compressed protobuf records.
	limits trace.Limits
	zstd   recordDecoder
}

// intern returns b as a string, shared with earlier equal strings.
func (p *parser) intern(b []byte) string {
	if len(b) > 64 {
		return string(b)
	}
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if p.names == nil {
		p.names = map[string]string{}
	}
	if len(p.names) < 1<<14 {
		p.names[s] = s
	}
	return s
}

// internString is intern for a string decoded elsewhere (protobuf).
func (p *parser) internString(s string) string {
	if len(s) > 64 {
		return s
	}
	if t, ok := p.names[s]; ok {
		return t
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	if len(p.names) < 1<<14 {
		p.names[s] = s
	}
	return s
}

// decodeOptions: duplicate names and invalid UTF-8 are not the importer's
// business (only the attributes it reads matter, and it writes valid UTF-8).
func decodeOptions() []jsontext.Options {
	return []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
}

// parseUnit reads one line (or one whole document) of requests. pos maps a
// byte offset in data to a line and column of the file.
func (p *parser) parseUnit(data []byte, pos func(off int64) (line, col int)) {
	// The last unit's size is a good guess at this one's.
	p.spans, p.diags, p.pos = make([]span, 0, len(p.spans)), nil, pos
	p.dec.Reset(bytes.NewBuffer(data), decodeOptions()...)
	for {
		if p.dec.PeekKind() == 0 {
			if _, err := p.dec.ReadToken(); err != nil && err != io.EOF {
				p.syntax(err)
			}
			return
		}
		if err := p.request(); err != nil {
			p.syntax(err)
			// The JS SDK's ConsoleSpanExporter prints objects with
			// unquoted keys (util.inspect), which look like JSON.
			if head := data[:min(len(data), 4096)]; bytes.Contains(head, []byte("traceId: '")) || bytes.Contains(head, []byte("resource: {")) {
				p.diags[len(p.diags)-1].Message += " (this is the output of the OpenTelemetry JS SDK's ConsoleSpanExporter, not OTLP: export with an OTLP exporter or JsonTraceSerializer, see the traces page)"
			}
			return
		}
	}
}

// syntax records a malformed-JSON error at the offset the decoder reports.
func (p *parser) syntax(err error) {
	off := p.dec.InputOffset()
	ptr := ""
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		off = se.ByteOffset
		ptr = string(se.JSONPointer)
		err = se.Err
	}
	line, col := p.pos(off)
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of input: the JSON value is not complete"
	}
	p.diags = append(p.diags, Diagnostic{Severity: Error, File: p.name, Line: line, Col: col, Pointer: ptr,
		Message: "malformed JSON: " + msg})
}

// fail records a well-formed value that is not what OTLP/JSON allows.
func (p *parser) fail(off int64, format string, args ...any) {
	line, col := p.pos(off)
	p.diags = append(p.diags, Diagnostic{Severity: Error, File: p.name, Line: line, Col: col,
		Pointer: string(p.dec.StackPointer()), Message: fmt.Sprintf(format, args...)})
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "nothing"
}

// expect checks that the next value is of kind k. A null is absent (false,
// nil); another kind is an error, and the value is skipped.
func (p *parser) expect(k jsontext.Kind, what string) (bool, error) {
	got := p.dec.PeekKind()
	switch got {
	case k:
		return true, nil
	case 'n':
		_, err := p.dec.ReadToken()
		return false, err
	case '{', '[', '"', '0', 't', 'f':
		p.fail(p.dec.InputOffset(), "%s must be %s, not %s", what, kindName(k), kindName(got))
		return false, p.dec.SkipValue()
	}
	// Not the start of a value (the end of input, '}', ']', or a byte no
	// value starts with, which PeekKind also returns): the decoder reports
	// the syntax error, and nothing else is said of it.
	if _, err := p.dec.ReadToken(); err != nil {
		return false, err
	}
	return false, errors.New("expected a value")
}

// object calls field for every member of an object; name is valid only
// until field reads the value.
func (p *parser) object(what string, field func(name []byte) error) error {
	ok, err := p.expect('{', what)
	if !ok || err != nil {
		return err
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return err
	}
	for p.dec.PeekKind() != '}' {
		v, err := p.dec.ReadValue()
		if err != nil {
			return err
		}
		if err := field(p.unquoteRaw(v)); err != nil {
			return err
		}
	}
	_, err = p.dec.ReadToken()
	return err
}

func (p *parser) array(what string, elem func() error) error {
	ok, err := p.expect('[', what)
	if !ok || err != nil {
		return err
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return err
	}
	for p.dec.PeekKind() != ']' {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err = p.dec.ReadToken()
	return err
}

// unquoteRaw returns the content of a JSON string without allocating when
// it has no escapes.
func (p *parser) unquoteRaw(v jsontext.Value) []byte {
	if len(v) < 2 {
		return nil
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1]
	}
	p.tmp, _ = jsontext.AppendUnquote(p.tmp[:0], v)
	return p.tmp
}

// str reads a string value (null is "").
func (p *parser) str(what string) (string, error) {
	ok, err := p.expect('"', what)
	if !ok || err != nil {
		return "", err
	}
	v, err := p.dec.ReadValue()
	if err != nil {
		return "", err
	}
	p.last = p.dec.InputOffset() - int64(len(v))
	return p.intern(p.unquoteRaw(v)), nil
}

// number reads a number given as a JSON number or, as OTLP/JSON writes
// 64-bit integers, a string. It returns the text of the number.
func (p *parser) number(what string) (string, int64, bool, error) {
	off := p.dec.InputOffset()
	switch p.dec.PeekKind() {
	case '0', '"':
		v, err := p.dec.ReadValue()
		if err != nil {
			return "", off, false, err
		}
		off = p.dec.InputOffset() - int64(len(v))
		if v[0] == '"' {
			return string(p.unquoteRaw(v)), off, true, nil
		}
		return string(v), off, true, nil
	case 'n':
		_, err := p.dec.ReadToken()
		return "", off, false, err
	}
	p.fail(off, "%s must be a number or a string holding one, not %s", what, kindName(p.dec.PeekKind()))
	return "", off, false, p.dec.SkipValue()
}

// maxPlausibleNanos is the latest time a span may carry, 2200-01-01 in
// Unix nanoseconds: a later one (2^64-1, a clock's garbage) is no time a
// span ran at, and taken as read it would make a run of centuries.
const maxPlausibleNanos = 7258118400 * 1e9

// implausibleTime is the message of a time beyond maxPlausibleNanos.
func implausibleTime(what string, n uint64) string {
	left := "span"
	if what == "timeUnixNano" {
		left = "span event"
	}
	return fmt.Sprintf("%s %d is not a plausible time in Unix nanoseconds: it is after 2200-01-01 (%d); the %s is left out", what, n, uint64(maxPlausibleNanos), left)
}

// nanos reads a Unix time in nanoseconds.
func (p *parser) nanos(what string, dst *uint64, bad *bool) error {
	s, off, ok, err := p.number(what)
	if err != nil || !ok {
		return err
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f >= 0 && f < math.MaxUint64 {
			n, err = uint64(f), nil
		}
	}
	if err == nil && n > maxPlausibleNanos {
		p.fail(off, "%s", implausibleTime(what, n))
		*bad = true
		return nil
	}
	if err == nil {
		*dst = n
		return nil
	}
	p.fail(off, "%s %q is not a time in Unix nanoseconds (a non-negative integer)", what, s)
	*bad = true
	return nil
}

// id reads a trace or span id: hex, as the collector writes it, or base64,
// as a plain protobuf-JSON encoder writes bytes. An empty id leaves dst
// zero and returns false.
func (p *parser) id(what string, dst []byte, bad *bool) (bool, error) {
	ok, err := p.expect('"', what)
	if !ok || err != nil {
		return false, err
	}
	v, err := p.dec.ReadValue()
	if err != nil {
		return false, err
	}
	off := p.dec.InputOffset() - int64(len(v))
	raw := p.unquoteRaw(v)
	if len(raw) == 0 {
		return false, nil
	}
	if len(raw) == 2*len(dst) {
		if _, err := hex.Decode(dst, raw); err == nil {
			return true, nil
		}
	} else if len(raw) <= 32 { // at most 24 bytes decoded, the size of b64
		if n, err := base64.StdEncoding.Decode(p.b64[:], raw); err == nil && n == len(dst) {
			copy(dst, p.b64[:n])
			return true, nil
		}
	}
	p.fail(off, "%s %q is not %d hex digits", what, truncate(string(raw), 80), 2*len(dst))
	*bad = true
	return false, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// request reads one ExportTraceServiceRequest.
func (p *parser) request() error {
	off := p.dec.InputOffset()
	var keys []string
	otlp := false
	err := p.object("an ExportTraceServiceRequest", func(name []byte) error {
		switch string(name) {
		case "resourceSpans":
			otlp = true
			return p.array("resourceSpans", p.resourceSpans)
		case "resource_spans", "resourceLogs", "resourceMetrics":
			otlp = true // not traces, or another encoding: nothing to read
		}
		if len(keys) < 16 {
			keys = append(keys, string(name))
		}
		return p.dec.SkipValue()
	})
	if err == nil && !otlp {
		if what := foreignFormat(keys); what != "" {
			p.fail(off, "this is %s, not OTLP: masrl trace import reads OTLP/JSON (an ExportTraceServiceRequest with resourceSpans) or the collector's protobuf records; export the spans with an OTLP exporter (see the traces page for each framework)", what)
		}
	}
	return err
}

// foreignFormat names the span exports that people take for OTLP, by the
// keys of an object that has no resourceSpans.
func foreignFormat(keys []string) string {
	has := func(k string) bool { return slices.Contains(keys, k) }
	switch {
	case has("context") && has("kind") && has("name"):
		return "the output of OpenTelemetry's ConsoleSpanExporter (one span per object, Python SDK)"
	case has("span_kind") || has("context.span_id") || has("context.trace_id") || has("span_id") && has("trace_id"):
		return "a Phoenix (Arize) span export"
	case has("observations") || has("projectId") || has("langfuse"):
		return "a Langfuse export"
	case has("traceId") && has("name") && (has("parentSpanId") || has("parentId") || has("kind")):
		return "a single span (the spans of an ExportTraceServiceRequest must sit in resourceSpans[].scopeSpans[].spans)"
	}
	return ""
}

func (p *parser) resourceSpans() error {
	first := len(p.spans)
	service := ""
	err := p.object("a resourceSpans element", func(name []byte) error {
		switch string(name) {
		case "resource":
			return p.object("resource", func(name []byte) error {
				if string(name) != "attributes" {
					return p.dec.SkipValue()
				}
				return p.attributes(func(key string) bool { return key == "service.name" },
					func(_ string, v attrValue) {
						if v.kind == 's' {
							service = v.s
						}
					})
			})
		case "scopeSpans", "instrumentationLibrarySpans":
			return p.array("scopeSpans", func() error {
				return p.object("a scopeSpans element", func(name []byte) error {
					if string(name) != "spans" {
						return p.dec.SkipValue()
					}
					return p.array("spans", p.span)
				})
			})
		}
		return p.dec.SkipValue()
	})
	for i := first; i < len(p.spans); i++ {
		p.spans[i].service = service
	}
	return err
}

// attributes reads a list of {key, value}; set receives the values whose
// key want accepts, the others are skipped undecoded.
func (p *parser) attributes(want func(key string) bool, set func(key string, v attrValue)) error {
	return p.array("attributes", func() error {
		var key string
		var haveKey, wanted bool
		var early jsontext.Value // a value that came before its key
		err := p.object("an attribute", func(name []byte) error {
			switch string(name) {
			case "key":
				k, err := p.str("key")
				if err != nil {
					return err
				}
				key, haveKey, wanted = k, true, want(k)
				return nil
			case "value":
				if !haveKey {
					v, err := p.dec.ReadValue()
					early = v.Clone()
					return err
				}
				if !wanted {
					return p.dec.SkipValue()
				}
				if key == "input.value" {
					// Prompt text on most spans, read only for a handoff
					// tool's arguments: scanned like a skipped value and
					// decoded only when it may name a target.
					raw, err := p.dec.ReadValue()
					if err == nil && mayNameTarget(raw) {
						set(key, p.rawAnyValue(raw))
					}
					return err
				}
				v, err := p.anyValue()
				if err == nil {
					set(key, v)
				}
				return err
			}
			return p.dec.SkipValue()
		})
		if err == nil && early != nil && haveKey && wanted {
			set(key, p.rawAnyValue(early))
		}
		return err
	})
}

// mayNameTarget reports whether raw JSON may hold a handoff target
// argument (agentNameArg): the key's letters appear as they are in the
// text, escaped quotes around them or not.
func mayNameTarget(raw []byte) bool {
	return bytes.Contains(raw, []byte("to_agent")) || bytes.Contains(raw, []byte("agent_name"))
}

// anyValue reads an OTLP AnyValue of the scalar kinds; arrays, key-value
// lists and bytes are skipped (kind 0).
func (p *parser) anyValue() (attrValue, error) {
	var v attrValue
	err := p.object("an attribute value", func(name []byte) error {
		switch string(name) {
		case "stringValue":
			s, err := p.str("stringValue")
			v = attrValue{kind: 's', s: s}
			return err
		case "intValue":
			s, off, ok, err := p.number("intValue")
			if err != nil || !ok {
				return err
			}
			n, perr := strconv.ParseInt(s, 10, 64)
			if perr != nil {
				p.fail(off, "intValue %q is not a 64-bit integer", truncate(s, 40))
				return nil
			}
			v = attrValue{kind: 'i', i: n}
			return nil
		case "doubleValue":
			s, off, ok, err := p.number("doubleValue")
			if err != nil || !ok {
				return err
			}
			f, perr := strconv.ParseFloat(s, 64)
			if perr != nil {
				p.fail(off, "doubleValue %q is not a number", truncate(s, 40))
				return nil
			}
			v = attrValue{kind: 'd', d: f}
			return nil
		case "boolValue":
			if k := p.dec.PeekKind(); k == 't' || k == 'f' {
				t, err := p.dec.ReadToken()
				v = attrValue{kind: 'b', i: map[bool]int64{true: 1}[t.Bool()]}
				return err
			}
		}
		return p.dec.SkipValue()
	})
	return v, err
}

// rawAnyValue decodes a value that was read before its key.
func (p *parser) rawAnyValue(raw jsontext.Value) attrValue {
	sub := parser{name: p.name, pos: func(int64) (int, int) { return p.pos(p.dec.InputOffset()) }}
	sub.dec.Reset(bytes.NewBuffer(raw), decodeOptions()...)
	v, err := sub.anyValue()
	p.diags = append(p.diags, sub.diags...)
	if err != nil {
		return attrValue{}
	}
	return v
}

// span reads one span and keeps it unless an id or time is malformed.
func (p *parser) span() error {
	off := p.dec.InputOffset()
	var s span
	var al alRewards
	var status int64
	bad, haveTrace, haveID := false, false, false
	err := p.object("a span", func(name []byte) error {
		var err error
		switch string(name) {
		case "traceId":
			haveTrace, err = p.id("traceId", s.trace[:], &bad)
		case "spanId":
			haveID, err = p.id("spanId", s.id[:], &bad)
		case "parentSpanId":
			s.hasParent, err = p.id("parentSpanId", s.parent[:], &bad)
		case "name":
			s.name, err = p.str("name")
		case "startTimeUnixNano":
			err = p.nanos("startTimeUnixNano", &s.start, &bad)
		case "endTimeUnixNano":
			err = p.nanos("endTimeUnixNano", &s.end, &bad)
		case "attributes":
			err = p.attributes(wantAttr, func(key string, v attrValue) { s.setAttr(key, v, &al) })
		case "kind":
			var text string
			var ok bool
			if text, _, ok, err = p.number("kind"); ok {
				s.spanKind = spanKindOf(enumValue(text))
			}
		case "status":
			err = p.object("status", func(name []byte) error {
				if string(name) != "code" {
					return p.dec.SkipValue() // the message may quote the prompt
				}
				text, _, ok, err := p.number("status code")
				if ok {
					status = statusCodeOf(enumValue(text))
				}
				return err
			})
		case "events":
			err = p.array("events", func() error { return p.event(&s) })
		case "links":
			err = p.array("links", func() error { return p.link(&s) })
		default:
			err = p.dec.SkipValue()
		}
		return err
	})
	if err != nil {
		return err
	}
	line, _ := p.pos(off)
	s.line = int32(min(line, math.MaxInt32))
	s.file = p.file
	if !haveTrace || !haveID {
		if !bad {
			p.fail(off, "%s", missingID(s.name, haveTrace))
		}
		return nil
	}
	if bad {
		return nil
	}
	s.setStatus(status)
	s.rewards = al.scores(s.end)
	p.spans = append(p.spans, s)
	return nil
}

// enumValue reads the text of an enum field (a number, or its name as a
// string) as an attribute value for spanKindOf and statusCodeOf.
func enumValue(text string) attrValue {
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return attrValue{kind: 'i', i: n}
	}
	return attrValue{kind: 's', s: text}
}

func (p *parser) event(s *span) error {
	var name string
	var at uint64
	var attrs eventAttrs
	bad := false
	err := p.object("a span event", func(field []byte) error {
		var err error
		switch string(field) {
		case "name":
			name, err = p.str("name")
		case "timeUnixNano":
			err = p.nanos("timeUnixNano", &at, &bad)
		case "attributes":
			err = p.attributes(wantEventAttr, attrs.set)
		default:
			err = p.dec.SkipValue()
		}
		return err
	})
	if err != nil || bad {
		return err
	}
	s.addEvent(name, at, attrs)
	return nil
}

func (p *parser) link(s *span) error {
	var l link
	var haveT, haveS, bad bool
	err := p.object("a link", func(name []byte) error {
		var err error
		switch string(name) {
		case "traceId":
			haveT, err = p.id("traceId", l.trace[:], &bad)
		case "spanId":
			haveS, err = p.id("spanId", l.span[:], &bad)
		default:
			err = p.dec.SkipValue()
		}
		return err
	})
	if err == nil && haveT && haveS {
		s.links = append(s.links, l)
	}
	return err
}
