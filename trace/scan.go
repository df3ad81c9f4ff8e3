package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// scanBufSize is the read buffer of the scanner: one read per 64 KiB is
// noise next to the scanning, and a larger buffer would cost its clearing
// on every small trace (the tests validate thousands).
const scanBufSize = 64 << 10

// pos is a position in the input: byte offset, 1-based line and 1-based
// byte column.
type pos struct {
	off  int64
	line int
	col  int
}

// syntaxError is a malformed-JSON error. After one, the scanner stops: the
// rest of the stream cannot be given a trustworthy structure.
type syntaxError struct {
	at      pos
	pointer string
	msg     string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.at.line, e.at.col, e.msg) }

// scanner is a pull tokenizer over an io.Reader. It never holds more than
// its buffer (plus one string) of the input, tracks line and column, and
// validates UTF-8 and the JSON grammar as it goes. It is written for the one
// shape the validator reads; it is not a general JSON decoder.
type scanner struct {
	r    io.Reader
	ra   *readahead // when non-nil, the source, read a chunk at a time
	buf  []byte
	i, n int   // unread bytes are buf[i:n]
	base int64 // input offset of buf[0]
	eof  bool
	rerr error // read error other than io.EOF

	// chunk is the readahead chunk buf lies in, to hand back when the
	// scanner moves on; nil when buf is the scanner's own.
	chunk []byte

	// m, when non-nil, holds the whole input in memory, mapped from a file
	// (mapped.go): buf is the part of it made visible so far, and fill
	// shows the next window instead of reading.
	m *mappedInput

	line      int
	lineStart int64 // input offset of the first byte of the current line

	// capture, when non-nil, collects the bytes consumed from capFrom on;
	// it lets the validator hand one event to the library. Bytes are copied
	// only when a refill would move them (spilled); an event that lies
	// within the buffer is handed over in place.
	capture *[]byte
	capFrom int
	spilled bool

	// where returns the JSON Pointer of the value being read, for errors.
	where func() string

	// str is the decoded text of the last string read. When the string had
	// no escapes and lay within buf, str is a view of buf (strView); fill
	// copies it to own before moving buf, so str stays valid until the next
	// string is read.
	str     []byte
	strView bool
	own     []byte
	badUTF8 bool // the last string held invalid UTF-8 (replaced by U+FFFD)
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, scanBufSize), line: 1}
}

// newBytesScanner returns a scanner of data, which it scans in place and
// never writes to: a trace already in memory (a line of a batch) is not
// copied.
func newBytesScanner(data []byte) *scanner {
	return &scanner{buf: data[:len(data):len(data)], n: len(data), eof: true, line: 1}
}

// newChunkScanner returns a scanner that scans ra's chunks in place.
func newChunkScanner(ra *readahead) *scanner {
	return &scanner{ra: ra, line: 1}
}

// fill reads more input, keeping buf[i:n]. It reports whether at least one
// more byte is available.
func (s *scanner) fill() bool {
	if s.eof || s.rerr != nil {
		return false
	}
	if s.m != nil {
		return s.fillMapped()
	}
	if s.capture != nil {
		*s.capture = append(*s.capture, s.buf[s.capFrom:s.i]...)
		s.capFrom = 0
		s.spilled = true
	}
	if s.strView {
		// s.str points into buf, which is about to move: keep a copy.
		s.own = append(s.own[:0], s.str...)
		s.str = s.own
		s.strView = false
	}
	if s.ra != nil {
		return s.fillChunk()
	}
	if s.i > 0 {
		copy(s.buf, s.buf[s.i:s.n])
		s.base += int64(s.i)
		s.n -= s.i
		s.i = 0
	}
	if s.n == len(s.buf) {
		// Only a token longer than the buffer gets here (a huge string or
		// number); grow rather than fail.
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.n])
		s.buf = nb
	}
	for {
		m, err := s.r.Read(s.buf[s.n:])
		s.n += m
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.eof = true
			} else {
				s.rerr = err
			}
			return m > 0
		}
		if m > 0 {
			return true
		}
	}
}

// fillChunk moves the scanner to the next readahead chunk, putting the
// unread bytes of the current buffer in the room in front of the chunk's
// data, or, if they do not fit (only a number token can be that long), in
// a buffer of the scanner's own.
func (s *scanner) fillChunk() bool {
	next, err := s.ra.take()
	if err != nil {
		if errors.Is(err, io.EOF) {
			s.eof = true
		} else {
			s.rerr = err
		}
		s.capFrom = s.i // fill took the capture up to here; buf stays
		return false
	}
	tail := s.buf[s.i:s.n]
	var nb []byte
	start := 0
	if len(tail) <= readaheadPad {
		start = readaheadPad - len(tail)
		copy(next[start:], tail)
		nb = next
	} else {
		nb = make([]byte, 0, len(tail)+len(next)-readaheadPad)
		nb = append(append(nb, tail...), next[readaheadPad:]...)
		s.ra.giveBack(next)
		next = nil
	}
	if s.chunk != nil {
		s.ra.giveBack(s.chunk)
	}
	s.chunk = next
	s.base += int64(s.i - start)
	s.buf, s.i, s.n = nb, start, len(nb)
	s.capFrom = start
	return true
}

func (s *scanner) startCapture(dst *[]byte) {
	*dst = (*dst)[:0]
	s.capture = dst
	s.capFrom = s.i
	s.spilled = false
}

// endCapture stops capturing and returns the captured bytes, valid until
// the next read from the scanner.
func (s *scanner) endCapture() []byte {
	if s.capture == nil {
		return nil
	}
	dst := s.capture
	s.capture = nil
	if !s.spilled {
		return s.buf[s.capFrom:s.i]
	}
	*dst = append(*dst, s.buf[s.capFrom:s.i]...)
	return *dst
}

// here returns the position of the next unread byte.
func (s *scanner) here() pos { return s.posAt(s.i) }

// posAt returns the position of buf[j], on the current line.
func (s *scanner) posAt(j int) pos {
	off := s.base + int64(j)
	return pos{off: off, line: s.line, col: int(off-s.lineStart) + 1}
}

func (s *scanner) errorf(format string, args ...any) *syntaxError {
	e := &syntaxError{at: s.here(), msg: fmt.Sprintf(format, args...)}
	if s.where != nil {
		e.pointer = s.where()
	}
	return e
}

// peek skips white space and returns the next byte without consuming it;
// ok is false at the end of the input. The common case, no white space,
// is small enough to be inlined into the callers; peekSlow does the rest.
func (s *scanner) peek() (c byte, ok bool) {
	if s.i < s.n {
		if c = s.buf[s.i]; c > ' ' {
			return c, true
		}
	}
	return s.peekSlow()
}

func (s *scanner) peekSlow() (c byte, ok bool) {
	// An element of a pretty-printed trace starts a line and is indented
	// with spaces: a line break and the spaces after it, up to eight at
	// once, cost a few instructions here instead of a trip round the loop
	// below per byte (a twentieth of the instructions on a large trace).
	if i := s.i; i+9 <= s.n && s.buf[i] == '\n' {
		const spaces = 0x2020202020202020
		w := binary.LittleEndian.Uint64(s.buf[i+1 : i+9])
		k := 8
		if x := w ^ spaces; x != 0 {
			k = bits.TrailingZeros64(x) >> 3
		}
		i++
		s.line++
		s.lineStart = s.base + int64(i)
		i += k
		s.i = i
		if i < s.n {
			if c = s.buf[i]; c > ' ' {
				return c, true
			}
		}
	}
	for {
		// The loop works on locals; the fields are written once.
		buf, i, n := s.buf, s.i, s.n
		for i < n && i < len(buf) {
			c = buf[i]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				i++
			case c == '\n':
				i++
				s.line++
				s.lineStart = s.base + int64(i)
			default:
				s.i = i
				return c, true
			}
		}
		s.i = i
		if !s.fill() {
			return 0, false
		}
	}
}

// unexpected describes what was found where something else was expected.
func (s *scanner) unexpected(want string) *syntaxError {
	c, ok := s.peek()
	if !ok {
		if s.rerr != nil {
			return s.errorf("read error: %v", s.rerr)
		}
		return s.errorf("unexpected end of input, want %s", want)
	}
	if c < 0x20 || c >= 0x7f {
		return s.errorf("unexpected byte 0x%02x, want %s", c, want)
	}
	return s.errorf("unexpected %q, want %s", c, want)
}

// expect consumes the byte c after optional white space. Like peek, its
// common case is inlined.
func (s *scanner) expect(c byte, want string) error {
	if s.i < s.n && s.buf[s.i] == c {
		s.i++
		return nil
	}
	return s.expectSlow(c, want)
}

func (s *scanner) expectSlow(c byte, want string) error {
	if d, ok := s.peekSlow(); !ok || d != c {
		return s.unexpected(want)
	}
	s.i++
	return nil
}

// more is called after an element of an array or object: it consumes a
// ',' and returns true, or consumes the closing byte and returns false.
func (s *scanner) more(closing byte) (bool, error) {
	if s.i < s.n && s.buf[s.i] == ',' {
		s.i++
		return true, nil
	}
	return s.moreSlow(closing)
}

func (s *scanner) moreSlow(closing byte) (bool, error) {
	c, ok := s.peek()
	if ok && c == ',' {
		s.i++
		return true, nil
	}
	if ok && c == closing {
		s.i++
		return false, nil
	}
	return false, s.unexpected(fmt.Sprintf("',' or '%c'", closing))
}

// first is called after '[' or '{': it consumes the closing byte and
// returns false if the container is empty.
func (s *scanner) first(closing byte) bool {
	c, ok := s.peek()
	if ok && c == closing {
		s.i++
		return false
	}
	return true
}

// readString reads a string token (the scanner is at its opening quote)
// into s.str, decoding escapes and noting invalid UTF-8 in s.badUTF8.
func (s *scanner) readString() error {
	if err := s.expect('"', "string"); err != nil {
		return err
	}
	s.badUTF8 = false
	// Fast path: a plain ASCII string inside the buffer is used in place.
	if j := s.plainRun(s.i); j < s.n && s.buf[j] == '"' {
		s.str = s.buf[s.i:j:j]
		s.strView = true
		s.i = j + 1
		return nil
	}
	if s.strView {
		s.str = s.own
		s.strView = false
	}
	s.str = s.str[:0]
	for {
		j := s.plainRun(s.i)
		s.str = append(s.str, s.buf[s.i:j]...)
		s.i = j
		if len(s.str) > maxStringLen {
			return s.errorf("string longer than %d bytes", maxStringLen)
		}
		if s.i == s.n {
			if !s.fill() {
				return s.unexpected("closing '\"' of string")
			}
			continue
		}
		c := s.buf[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			if err := s.readEscape(); err != nil {
				return err
			}
		case c < 0x20:
			return s.errorf("control character 0x%02x in string (must be escaped)", c)
		default:
			if s.n-s.i < utf8.UTFMax && !utf8.FullRune(s.buf[s.i:s.n]) {
				if s.fill() {
					continue
				}
			}
			r, size := utf8.DecodeRune(s.buf[s.i:s.n])
			if r == utf8.RuneError && size <= 1 {
				s.badUTF8 = true
				s.str = utf8.AppendRune(s.str, utf8.RuneError)
				s.i++
				continue
			}
			s.str = append(s.str, s.buf[s.i:s.i+size]...)
			s.i += size
		}
	}
}

// need makes k bytes available after s.i if the input has them.
func (s *scanner) need(k int) bool {
	for s.n-s.i < k {
		if !s.fill() {
			return false
		}
	}
	return true
}

func (s *scanner) readEscape() error {
	if !s.need(2) {
		return s.unexpected("escape sequence")
	}
	c := s.buf[s.i+1]
	switch c {
	case '"', '\\', '/':
		s.str = append(s.str, c)
	case 'b':
		s.str = append(s.str, '\b')
	case 'f':
		s.str = append(s.str, '\f')
	case 'n':
		s.str = append(s.str, '\n')
	case 'r':
		s.str = append(s.str, '\r')
	case 't':
		s.str = append(s.str, '\t')
	case 'u':
		r, err := s.hex4()
		if err != nil {
			return err
		}
		if utf16.IsSurrogate(r) {
			// A high surrogate must be followed by \u and a low one;
			// otherwise it decodes to U+FFFD, as encoding/json does.
			if s.need(6) && s.buf[s.i] == '\\' && s.buf[s.i+1] == 'u' {
				save := s.i
				r2, err := s.hex4()
				if err != nil {
					return err
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					s.str = utf8.AppendRune(s.str, d)
					return nil
				}
				s.i = save
			}
			r = utf8.RuneError
		}
		s.str = utf8.AppendRune(s.str, r)
		return nil
	default:
		s.i++
		return s.errorf("invalid escape '\\%c' in string", c)
	}
	s.i += 2
	return nil
}

// hex4 consumes \uXXXX and returns its value.
func (s *scanner) hex4() (rune, error) {
	if !s.need(6) {
		return 0, s.unexpected("four hex digits after \\u")
	}
	var r rune
	for k := 2; k < 6; k++ {
		c := s.buf[s.i+k]
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			s.i += k
			return 0, s.errorf("invalid hex digit in \\u escape")
		}
	}
	s.i += 6
	return r, nil
}

// number is a JSON number as read: its text, its value, and whether the
// text denotes a value below zero (decided on the digits, so that -1e-400,
// which rounds to -0, still counts as negative, as JSON Schema's exact
// arithmetic has it).
type number struct {
	val      float64
	negative bool
	tooLarge bool // beyond the range of a float64
}

// readNumber reads a number token following the JSON grammar.
func (s *scanner) readNumber() (number, error) {
	// Numbers are short; make sure the whole token is in the buffer so that
	// it can be parsed in place.
	for {
		j := s.i
		for j < s.n && isNumByte(s.buf[j]) {
			j++
		}
		if j-s.i > maxNumberLen {
			return number{}, s.errorf("number longer than %d bytes", maxNumberLen)
		}
		if j < s.n || !s.fill() {
			break
		}
	}
	n, j, want := parseNumber(s.buf[:s.n], s.i)
	s.i = j
	if want != "" {
		return number{}, s.unexpected(want)
	}
	return n, nil
}

// parseNumber parses the number token that starts at b[j], which must lie
// whole in b. It returns the number and the index after it, or, when the
// token breaks the grammar, the index of the offending byte and what was
// wanted there.
func parseNumber(b []byte, j int) (n number, next int, want string) {
	start := j
	end := len(b)
	nonzero := false
	neg := false
	// The digits are also gathered into mant, so that a short decimal
	// needs no second pass.
	var mant uint64
	digits, frac := 0, 0
	if j < end && b[j] == '-' {
		neg = true
		j++
	}
	switch {
	case j < end && b[j] == '0':
		j++
		digits++
	case j < end && '1' <= b[j] && b[j] <= '9':
		for j < end && '0' <= b[j] && b[j] <= '9' {
			mant = mant*10 + uint64(b[j]-'0')
			digits++
			j++
		}
		nonzero = true
	default:
		return number{}, j, "digit"
	}
	if j < end && b[j] == '.' {
		j++
		if j >= end || b[j] < '0' || b[j] > '9' {
			return number{}, j, "digit after decimal point"
		}
		for j < end && '0' <= b[j] && b[j] <= '9' {
			if b[j] != '0' {
				nonzero = true
			}
			mant = mant*10 + uint64(b[j]-'0')
			digits++
			frac++
			j++
		}
	}
	simple := digits <= 15
	if j < end && (b[j] == 'e' || b[j] == 'E') {
		simple = false
		j++
		if j < end && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j >= end || b[j] < '0' || b[j] > '9' {
			return number{}, j, "digit in exponent"
		}
		for j < end && '0' <= b[j] && b[j] <= '9' {
			j++
		}
	}
	text := b[start:j]
	n = number{negative: neg && nonzero}
	if simple {
		// Mantissa and power of ten are both exact float64 values, so
		// their quotient is correctly rounded, as ParseFloat's would be.
		f := float64(mant)
		if frac > 0 {
			f /= math.Pow10(frac)
		}
		if neg {
			f = -f
		}
		n.val = f
		return n, j, ""
	}
	f, err := strconv.ParseFloat(bytesToString(text), 64)
	if err != nil {
		n.tooLarge = true
	}
	n.val = f
	return n, j, ""
}

// plainRun returns the index of the first byte at or after j in the
// buffer that ends a plain ASCII run of a string (a quote, a backslash, a
// control byte or non-ASCII), or s.n. Strings in a trace are short, so it
// finds the byte within a word rather than testing words whole and then
// walking the last one byte by byte.
func (s *scanner) plainRun(j int) int {
	// The buffer in a local: the loop then loads neither s.buf nor s.n
	// from memory on each word.
	b := s.buf[:s.n]
	for j >= 0 && j+8 <= len(b) {
		if m := specialBytes(binary.LittleEndian.Uint64(b[j : j+8])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	for ; j < len(b); j++ {
		if c := b[j]; c == '"' || c == '\\' || c-0x20 >= 0x60 {
			break
		}
	}
	return j
}

// specialBytes sets the high bit of each byte of v that is a quote, a
// backslash, a control byte (< 0x20) or non-ASCII (>= 0x80), with the usual
// has-zero-byte arithmetic, in eight operations. Below the first special
// byte no subtraction borrows, and a byte of 0x20 to 0x7f other than a
// quote or backslash leaves all three differences under 0x80; so the
// lowest set bit is exact (borrows can set bits above it). A quote, a
// backslash or a control byte sets the high bit of its difference, and so
// does a non-ASCII byte: below 0xa0 its xor with a quote is at least 0xa0,
// from 0xa0 on less 0x20 is at least 0x80 (TestSpecialBytes tries them all).
func specialBytes(v uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((v ^ ('"' * ones) - ones) | (v ^ ('\\' * ones) - ones) | (v - 0x20*ones)) & highs
}

func isNumByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// readLiteral consumes true, false or null.
func (s *scanner) readLiteral(lit string) error {
	if !s.need(len(lit)) || string(s.buf[s.i:s.i+len(lit)]) != lit {
		return s.unexpected("value")
	}
	s.i += len(lit)
	return nil
}

// kind is the JSON type of the value that starts with byte c.
func kindOf(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// bytesToString views b as a string for a call that does not keep it.
func bytesToString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// wordMatcher recognises a few plain ASCII strings of up to 15 bytes (the
// property names of events and edges, most event and edge types) straight
// from the buffer, two words at a time: on a million-event trace those
// strings are most of the tokens, and reading each with readString and then
// switching on it was a fifth of the scanner's time. The strings sit in a
// small table indexed by a multiplicative hash of their words, chosen when
// the matcher is built so that no two share a slot: a match costs one probe
// and one comparison, and no branch on the string's length. Codes are
// positive; 0 means no match.
type wordMatcher struct {
	slots [64]matchWord // code 0: empty
	mul   uint64
	words []matchWord // the strings matched, in code order
	// byCode[c] is the index in words of the string with code c, -1 if
	// m leaves it out.
	byCode []int
}

type matchWord struct {
	w0   uint64 // its first eight bytes, little-endian, zero-padded
	n    int    // its length
	code int
	// q0 and q1 are the string's bytes and its closing quote, k0 and k1
	// the masks of those bytes: the string is at i if the 16 bytes there,
	// masked, equal them (see isAt and matchAt).
	q0, q1, k0, k1 uint64
}

// slot places a string by its first eight bytes (fewer if it is shorter,
// zero-padded): matchAt finds them with one quote search in one word, and
// checks the rest against the slot's string.
func (m *wordMatcher) slot(w0 uint64) int {
	return int(w0 * m.mul >> 58)
}

// newWordMatcher returns a matcher of names[i] with code i+1. Names longer
// than 15 bytes, a name whose first eight bytes an earlier name has, and
// all of them if no collision-free multiplier turns up, are left out:
// match then returns 0 for them and the caller reads them the general way,
// so leaving a name out costs time, never a wrong answer.
func newWordMatcher(names []string) *wordMatcher {
	var words []matchWord
	first8 := map[string]bool{}
	for i, name := range names {
		if name == "" || len(name) > 15 || first8[name[:min(len(name), 8)]] {
			continue
		}
		first8[name[:min(len(name), 8)]] = true
		var b, q, k [16]byte
		copy(b[:], name)
		copy(q[:], name)
		q[len(name)] = '"'
		for j := range len(name) + 1 {
			k[j] = 0xff
		}
		le := binary.LittleEndian
		words = append(words, matchWord{
			w0: le.Uint64(b[:8]),
			n:  len(name), code: i + 1,
			q0: le.Uint64(q[:8]), q1: le.Uint64(q[8:]), k0: le.Uint64(k[:8]), k1: le.Uint64(k[8:]),
		})
	}
	m := &wordMatcher{}
	for try := range uint64(1000) {
		m.mul = 0x2545f4914f6cdd1d + 2*try
		m.slots = [64]matchWord{}
		ok := true
		for _, mw := range words {
			e := &m.slots[m.slot(mw.w0)]
			if e.code != 0 {
				ok = false
				break
			}
			*e = mw
		}
		if ok {
			m.words = words
			m.byCode = make([]int, len(names)+1)
			for c := range m.byCode {
				m.byCode[c] = -1
			}
			for k, mw := range words {
				m.byCode[mw.code] = k
			}
			return m
		}
	}
	m.slots = [64]matchWord{}
	return m
}

// word returns the string with code c, nil if m leaves it out.
func (m *wordMatcher) word(c int) *matchWord {
	if c < 0 || c >= len(m.byCode) || m.byCode[c] < 0 {
		return nil
	}
	return &m.words[m.byCode[c]]
}

// isAt reports whether the string w, with its closing quote, is at b[i]
// (after an opening quote), with 16 bytes of b there. b is the caller's
// view of the buffer, in a register.
func isAt(b []byte, i int, w *matchWord) bool {
	if i < 0 || i+16 > len(b) {
		return false
	}
	v := b[i : i+16 : i+16]
	return binary.LittleEndian.Uint64(v[:8])&w.k0 == w.q0 && binary.LittleEndian.Uint64(v[8:])&w.k1 == w.q1
}

// match is called at a string's opening quote. If the string is one of
// m's, written plainly and within the buffer, match consumes it and returns
// its code; otherwise it consumes nothing and returns 0, and the caller
// reads the string the general way (which also covers a name written with
// escapes). A name has no quote, backslash or control byte, so finding the
// closing quote and comparing every byte before it is enough.
func (s *scanner) match(m *wordMatcher) int {
	code, next := s.matchAt(s.i, m)
	if code != 0 {
		s.i = next
	}
	return code
}

// matchAt is match for the string whose opening quote is at buf[j]; it
// returns the code and the index after the closing quote, and moves
// nothing.
func (s *scanner) matchAt(j int, m *wordMatcher) (code, next int) {
	i := j + 1 // after the quote
	if m == nil || i+16 > s.n {
		return 0, 0
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	buf := s.buf[i : i+16 : i+16]
	v0 := binary.LittleEndian.Uint64(buf[:8])
	v1 := binary.LittleEndian.Uint64(buf[8:])
	// The bytes before the first quote in the first word place the
	// string (TrailingZeros64 is 64 if there is none: all eight count);
	// the slot's string, with its closing quote, must then be at i. This
	// is a short chain of dependent operations: the value of every event
	// and edge type goes through it, each waiting for the last.
	x0 := v0 ^ '"'*ones
	tz0 := bits.TrailingZeros64((x0 - ones) &^ x0 & highs)
	e := &m.slots[m.slot(v0&(^uint64(0)>>(64-tz0&^7)))]
	if v0&e.k0 != e.q0 || v1&e.k1 != e.q1 || e.code == 0 {
		return 0, 0
	}
	return e.code, i + e.n + 1
}
