package trace

import (
	"encoding/binary"
	"math"
)

// The plain path: most events and edges of a trace are written plainly
// (declared properties only, ASCII strings without escapes, short numbers,
// no line breaks) and are valid, and on a large trace reading them is most
// of the work. plainObject reads such an object straight from the buffer
// with the same generated tables the member loop uses, and gives up on
// anything else: an undeclared or repeated key, a value that would be a
// finding, a string with an escape or a non-ASCII byte, a line break, an
// object that runs past the buffer. It consumes nothing when it gives up,
// so the member loop then reads the object from its start and reports what
// it finds there. The plain path never reports anything, so a trace gets
// the same findings and measures with it as without it: TestDifferential
// and FuzzValidate compare the two (Options.memberLoopOnly), and reads of
// a few bytes at a time leave most objects to the member loop.

// plainKinds are an object schema's property sets as plainObject reads
// them, from the generated tables.
type plainKinds struct {
	strings, enums, numbers, booleans int
	nonEmpty, nonNegative             int
	// enum matches the values of the object's enumeration (there is one
	// per object in the schema, as eventValue also assumes); code maps a
	// value the matcher leaves out (longer than 15 bytes) to its index.
	enum *wordMatcher
	code func(string) int
}

// plainMember is one member read by plainObject: its bit, where its value
// starts in the buffer, and the value.
type plainMember struct {
	bit int
	at  int
	end int // a string's closing quote
	// code is an enumeration's index, or a boolean's value (1 for true).
	code int
	num  float64
}

// str returns the member's string, a view of buf.
func (m *plainMember) str(buf []byte) []byte { return buf[m.at+1 : m.end : m.end] }

// maxPlainMembers bounds the members plainObject reads; an object with more
// (only repeated or undeclared keys could make one) goes to the member loop.
const maxPlainMembers = 16

// plainObj is plainObject's result, kept in the checker so that reading an
// object does not clear a fresh array.
type plainObj struct {
	m    [maxPlainMembers]plainMember // the members kept (see plainObject)
	n    int                          // how many were kept
	mask int                          // the bits of every member read
	end  int                          // the index after the closing '}'
}

// plainObject reads the object at the scanner's '{' into o if it is written
// plainly, lies within the buffer and is valid by spec and kinds; it moves
// nothing. Only the members whose bits are in keep are kept in o.m: the
// caller's loop over them is then as short as what it needs (with
// FindingsOnly, three of an event's eight members).
//
// pred holds, for each place in the object, the last two keys found there
// (nil if none), which plainObject updates.
func (s *scanner) plainObject(spec *objectSpec, kinds *plainKinds, keep int, o *plainObj, pred *[maxPlainMembers][2]*matchWord) bool {
	o.n, o.mask = 0, 0
	return s.plainMembers(spec, kinds, keep, o, pred, skipBlanks(s.buf[:s.n], s.i+1), 0)
}

// plainMembers is plainObject from the member at b[j] on, place members
// having been read into o already (compactEventHead reads the first three
// of most events).
func (s *scanner) plainMembers(spec *objectSpec, kinds *plainKinds, keep int, o *plainObj, pred *[maxPlainMembers][2]*matchWord, j, place int) bool {
	b := s.buf[:s.n]
	// The property sets in locals: the stores below would make the
	// compiler load them again from kinds on every member.
	strs, enums, nums, bools := kinds.strings, kinds.enums, kinds.numbers, kinds.booleans
	nonEmpty, nonNeg := kinds.nonEmpty, kinds.nonNegative
	// place counts the members read, o.n those kept.
	for ; ; place++ {
		if j >= len(b) || b[j] != '"' || place == maxPlainMembers {
			return false
		}
		// Objects of one kind mostly list their keys in the same order,
		// with optional ones left out: the last two keys found at this
		// place are tried first, the latest first.
		var code, k int
		p := &pred[place]
		switch {
		case p[0] != nil && isAt(b, j+1, p[0]):
			code, k = p[0].code, j+2+p[0].n
		case p[1] != nil && isAt(b, j+1, p[1]):
			code, k = p[1].code, j+2+p[1].n
			p[0], p[1] = p[1], p[0]
		default:
			code, k = s.matchAt(j, spec.keys)
			if code == 0 {
				return false
			}
			p[0], p[1] = spec.keys.word(code), p[0]
		}
		bit := 1 << ((code - 1) & 63) // codes are 1 to 64: no shift check
		if o.mask&bit != 0 {
			return false
		}
		o.mask |= bit
		// k is after the key's closing quote: the colon, then the value,
		// most often with no blanks around the colon.
		if k+1 < len(b) && b[k] == ':' && b[k+1] > ' ' {
			j = k + 1
		} else {
			j = skipBlanks(b, k)
			if j >= len(b) || b[j] != ':' {
				return false
			}
			if j = skipBlanks(b, j+1); j >= len(b) {
				return false
			}
		}
		m := &o.m[o.n]
		m.bit, m.at = bit, j
		switch {
		case bit&strs != 0:
			if b[j] != '"' {
				return false
			}
			e := s.plainRun(j + 1)
			if e >= len(b) || b[e] != '"' || bit&nonEmpty != 0 && e == j+1 {
				return false
			}
			m.end = e
			j = e + 1
		case bit&enums != 0:
			if b[j] != '"' {
				return false
			}
			c, e := s.matchAt(j, kinds.enum)
			if c == 0 {
				end := s.plainRun(j + 1)
				if end >= len(b) || b[end] != '"' {
					return false
				}
				c, e = kinds.code(bytesToString(b[j+1:end]))+1, end+1
				if c == 0 {
					return false
				}
			}
			m.code = c - 1
			j = e
		case bit&nums != 0:
			n, e, want := parseNumber(b, j)
			// A number that ends the buffer may go on in the next read.
			if want != "" || e >= len(b) || n.tooLarge || bit&nonNeg != 0 && n.negative {
				return false
			}
			m.num = n.val
			j = e
		case bit&bools != 0:
			switch {
			case len(b)-j >= 4 && string(b[j:j+4]) == "true":
				m.code = 1
				j += 4
			case len(b)-j >= 5 && string(b[j:j+5]) == "false":
				m.code = 0
				j += 5
			default:
				return false
			}
		default:
			return false
		}
		if bit&keep != 0 {
			o.n++
		}
		// The separator, most often right after the value.
		if j >= len(b) {
			return false
		}
		c := b[j]
		if c <= ' ' {
			if j = skipBlanks(b, j); j >= len(b) {
				return false
			}
			c = b[j]
		}
		switch c {
		case ',':
			j = skipBlanks(b, j+1)
			continue
		case '}':
			if spec.required&^uint64(o.mask) != 0 {
				return false
			}
			o.end = j + 1
			return true
		}
		return false
	}
}

// skipBlanks skips spaces and tabs, the white space that does not move to
// a new line. Most objects have none, so the first test is inlined.
func skipBlanks(b []byte, j int) int {
	if j < len(b) && b[j] > ' ' {
		return j
	}
	return skipBlanksSlow(b, j)
}

func skipBlanksSlow(b []byte, j int) int {
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return j
}

// plainEvent reads event i if plainObject can; it reports whether it did.
func (c *checker) plainEvent(i int) bool {
	o := &c.plainObj
	if j, place := c.compactEventHead(o); place == 0 {
		if !c.s.plainObject(c.eventObj, &c.eventKinds, c.eventKeep, o, &c.eventKeys) {
			return false
		}
	} else if !c.s.plainMembers(c.eventObj, &c.eventKinds, c.eventKeep, o, &c.eventKeys, j, place) {
		return false
	}
	ev := eventRecord{t: math.NaN(), typ: -1, trusted: -1, index: int32(i)}
	for k := range o.n {
		m := &o.m[k]
		switch {
		case m.bit&evNumbers != 0:
			c.eventNumber(&ev, m.bit, m.num)
		case m.bit&evEnums != 0:
			ev.typ = int8(m.code)
		case m.bit&evBooleans != 0:
			c.eventBool(&ev, m.bit, m.code == 1)
		default:
			c.eventString(&ev, m.bit, m.str(c.s.buf), c.s.posAt(m.at))
		}
	}
	c.s.i = o.end
	c.rep.countEvent(int(ev.typ))
	c.feed.event(&ev)
	return true
}

// plainEdge reads edge i if plainObject can; it reports whether it did.
func (c *checker) plainEdge(i int) bool {
	if c.compactEdge() {
		return true
	}
	o := &c.plainObj
	if !c.s.plainObject(c.edgeObj, &c.edgeKinds, -1, o, &c.edgeKeys) {
		return false
	}
	ed := edgeRecord{at: lineCol(c.s.here())}
	typ := -1
	srcOK, dstOK := false, false
	for k := range o.n {
		m := &o.m[k]
		if m.bit&edEnums != 0 {
			typ = m.code
			continue
		}
		s, d := c.edgeString(&ed, m.bit, m.str(c.s.buf), c.s.posAt(m.at))
		srcOK, dstOK = srcOK || s, dstOK || d
	}
	ed.ok = srcOK && dstOK
	c.s.i = o.end
	c.rep.countEdge(typ)
	c.feed.edge(&ed)
	return true
}

// The first eight bytes of the three stretches around an edge's values
// when it is written compactly, and the first seven, six, eight and eight
// of an event's first four, as little-endian words (TestCompactEdge and
// TestCompactEventHead check them against their text).
const (
	compactSrc     = 0x223a22637273227b // {"src":"
	compactDst     = 0x3a22747364222c22 // ","dst":
	compactType    = 0x2265707974222c22 // ","type"
	compactID      = 0x223a226469227b   // {"id":"
	compactT       = 0x3a2274222c22     // ","t":
	compactTypeKey = 0x3a2265707974222c // ,"type":
	compactAgent   = 0x22746e656761222c // ,"agent"
)

// compactEventHead reads the first three members of the event at the
// scanner's '{' into o if they are written exactly as
// {"id":"ID","t":NUMBER,"type":"TYPE", and are valid, as most events of a
// large trace begin (the synthetic traces', masrl trace import's), and
// the fourth too if it is "agent":"AGENT", followed by more: a few word
// compares in place of a predicted key, a colon and a separator per
// member. It returns where the next member starts and how many it read,
// for plainMembers to read the rest; or 0, 0, having kept nothing, if the
// event begins otherwise, and plainObject reads it whole.
func (c *checker) compactEventHead(o *plainObj) (next, place int) {
	s := c.s
	b := s.buf[:s.n]
	j := s.i
	if j < 0 || j+8 > len(b) || binary.LittleEndian.Uint64(b[j:])&(1<<56-1) != compactID {
		return 0, 0
	}
	id := j + 6 // the id's opening quote
	e := s.plainRun(id + 1)
	if e == id+1 || e+8 > len(b) || binary.LittleEndian.Uint64(b[e:])&(1<<48-1) != compactT {
		return 0, 0
	}
	t := e + 6
	n, f, want := parseNumber(b, t)
	if want != "" || f+9 > len(b) || n.tooLarge || n.negative || binary.LittleEndian.Uint64(b[f:]) != compactTypeKey || b[f+8] != '"' {
		return 0, 0
	}
	typ := f + 8
	code, g := s.matchAt(typ, c.eventKinds.enum)
	if code == 0 || g >= len(b) || b[g] != ',' {
		return 0, 0
	}
	keep := c.eventKeep
	o.n, o.mask = 0, evID|evT|evType
	if keep&evID != 0 {
		o.m[o.n] = plainMember{bit: evID, at: id, end: e}
		o.n++
	}
	if keep&evT != 0 {
		o.m[o.n] = plainMember{bit: evT, at: t, num: n.val}
		o.n++
	}
	if keep&evType != 0 {
		o.m[o.n] = plainMember{bit: evType, at: typ, code: code - 1}
		o.n++
	}
	// The agent, which every event has, mostly comes next.
	if g+10 > len(b) || binary.LittleEndian.Uint64(b[g:]) != compactAgent || b[g+8] != ':' || b[g+9] != '"' {
		return skipBlanks(b, g+1), 3
	}
	agent := g + 9
	a := s.plainRun(agent + 1)
	if a == agent+1 || a+1 >= len(b) || b[a] != '"' || b[a+1] != ',' {
		return skipBlanks(b, g+1), 3
	}
	o.mask |= evAgent
	if keep&evAgent != 0 {
		o.m[o.n] = plainMember{bit: evAgent, at: agent, end: a}
		o.n++
	}
	return skipBlanks(b, a+2), 4
}

// compactEdge reads the edge at the scanner's '{' if it is written
// exactly as {"src":"ID","dst":"ID","type":"TYPE"}, both ids non-empty
// and plain, the type one the matcher knows: how most edges of a large
// trace are written (the synthetic traces' and masrl trace import's), and
// a third of the elements of such a trace. plainObject reads them too,
// key by key; here the keys and separators are three word compares, not
// a predicted key, a colon and a separator per member (on a million
// edges, about a tenth of the CPU time of trace validate). It records the
// edge as plainEdge does and moves nothing when it gives up; anything
// else (another order, blanks, an escape, an empty id) is left to
// plainObject. TestCompactEdge holds the two to the same result.
func (c *checker) compactEdge() bool {
	s := c.s
	b := s.buf[:s.n]
	j := s.i
	if j < 0 || j+8 > len(b) || binary.LittleEndian.Uint64(b[j:]) != compactSrc {
		return false
	}
	src := j + 7 // the src's opening quote
	e := s.plainRun(src + 1)
	if e == src+1 || e+9 > len(b) || binary.LittleEndian.Uint64(b[e:]) != compactDst || b[e+8] != '"' {
		return false
	}
	dst := e + 8
	f := s.plainRun(dst + 1)
	if f == dst+1 || f+10 > len(b) || binary.LittleEndian.Uint64(b[f:]) != compactType || b[f+8] != ':' || b[f+9] != '"' {
		return false
	}
	code, end := s.matchAt(f+9, c.edgeKinds.enum)
	if code == 0 || end >= len(b) || b[end] != '}' {
		return false
	}
	ed := edgeRecord{at: lineCol(s.here()), ok: true}
	ed.src, ed.srcAt = c.feed.keepID(b[src+1:e]), lineCol(s.posAt(src))
	ed.dst, ed.dstAt = c.feed.keepID(b[dst+1:f]), lineCol(s.posAt(dst))
	s.i = end + 1
	c.rep.countEdge(code - 1)
	c.feed.edge(&ed)
	return true
}
