package trace

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPlainRun compares the word-at-a-time search for the end of a plain
// string run with a byte-by-byte one, on words mixing the bytes that matter
// with their neighbours, at every offset.
func TestPlainRun(t *testing.T) {
	interesting := []byte{'"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xff, 'a', '1', 0x22 ^ 0x80, 0x5c ^ 0x80}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		buf := make([]byte, 1+rng.IntN(24))
		for i := range buf {
			if rng.IntN(3) == 0 {
				buf[i] = interesting[rng.IntN(len(interesting))]
			} else {
				buf[i] = byte(' ' + rng.IntN(0x5f))
				if buf[i] == '"' || buf[i] == '\\' {
					buf[i] = 'x'
				}
			}
		}
		s := &scanner{buf: buf, n: len(buf)}
		for start := 0; start <= len(buf); start++ {
			want := start
			for want < len(buf) {
				c := buf[want]
				if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
					break
				}
				want++
			}
			if got := s.plainRun(start); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", buf, start, got, want)
			}
		}
	}
}

// TestSpecialBytes tries every byte at every place of a word, below it
// every byte that is not special (all alike) and above it random bytes:
// the lowest special byte specialBytes finds must be that byte exactly
// when it is special.
func TestSpecialBytes(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	rng := rand.New(rand.NewPCG(3, 4))
	for place := range 8 {
		for c := range 256 {
			for fill := byte(0x20); fill < 0x80; fill++ {
				if special(fill) {
					continue
				}
				var w [8]byte
				for k := range w {
					switch {
					case k < place:
						w[k] = fill
					case k == place:
						w[k] = byte(c)
					default:
						w[k] = byte(rng.Uint32())
					}
				}
				want := 8
				for k, b := range w {
					if special(b) {
						want = k
						break
					}
				}
				m := specialBytes(binary.LittleEndian.Uint64(w[:]))
				got := 8
				if m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("specialBytes(%q) finds byte %d, want %d", w, got, want)
				}
			}
		}
	}
}

// TestWordMatcher checks that a matcher finds each of its names written
// plainly, consumes exactly the string, and declines everything else: a
// prefix, an extension, an escaped form and a string cut by the buffer.
func TestWordMatcher(t *testing.T) {
	ek := evKeys()
	for _, names := range [][]string{ek[:], eventTypeList(), edgeTypeList(), {"src", "dst", "type"}, Topologies()} {
		m := newWordMatcher(names)
		for i, name := range names {
			in := `"` + name + `": 1, "padding to fill three words"`
			s := &scanner{buf: []byte(in), n: len(in)}
			want, wantAt := i+1, len(name)+2
			if len(name) > 15 {
				want, wantAt = 0, 0 // left to readString
			}
			if got := s.match(m); got != want || s.i != wantAt {
				t.Errorf("match(%q) = %d at %d, want %d at %d", in, got, s.i, want, wantAt)
			}
			for _, other := range []string{name[:len(name)-1], name + "x", `\u00` + fmt.Sprintf("%02x", name[0]) + name[1:], "X" + name[1:]} {
				if slices.Contains(names, other) {
					continue // "to" cut short is "t", another name
				}
				in := `"` + other + `"                                `
				s := &scanner{buf: []byte(in), n: len(in)}
				if got := s.match(m); got != 0 || s.i != 0 {
					t.Errorf("match(%q) = %d at %d, want no match", in, got, s.i)
				}
			}
			// The closing quote is not in the buffer yet: no match, and no
			// read beyond s.n (the bytes there are a different name).
			cut := `"` + name + `"` + strings.Repeat(" ", 24)
			s = &scanner{buf: []byte(cut), n: len(name) + 1}
			if got := s.match(m); got != 0 {
				t.Errorf("match(%q) with the quote beyond the buffer = %d, want 0", cut[:s.n], got)
			}
		}
	}
}

// TestReadNumber compares the values readNumber computes, by its short
// decimal path or by ParseFloat, with ParseFloat's.
func TestReadNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := []string{"0", "-0", "0.5", "-0.0", "123.456", "1e5", "-1.5E-3", "123456789012345", "1234567890123456",
		"0.000000000000001", "0.0000000000000001", "999999999999999.9", "1.7976931348623157e308", "4.9e-324", "-1e-400"}
	for range 5000 {
		in = append(in, strconv.FormatFloat((rng.Float64()-0.5)*math.Pow10(rng.IntN(20)), 'f', rng.IntN(12), 64))
	}
	for _, text := range in {
		s := &scanner{buf: []byte(text + ","), n: len(text) + 1}
		n, err := s.readNumber()
		want, _ := strconv.ParseFloat(text, 64)
		if err != nil || math.Float64bits(n.val) != math.Float64bits(want) || s.i != len(text) {
			t.Errorf("readNumber(%q) = %v, %v at %d, want %v at %d", text, n.val, err, s.i, want, len(text))
		}
	}
}

// TestSchemaMatchers requires the matchers of the schema's keys and type
// values to hold every name of up to 15 bytes: a name they leave out is
// still read correctly, the general way, but slowly, and nothing else
// would notice.
func TestSchemaMatchers(t *testing.T) {
	tb := newTables()
	for _, tc := range []struct {
		name  string
		m     *wordMatcher
		names []string
	}{
		{"event keys", tb.eventObj.keys, tb.eventObj.names},
		{"edge keys", tb.edgeObj.keys, tb.edgeObj.names},
		{"event types", tb.eventTypes, eventTypeList()},
		{"edge types", tb.edgeTypes, edgeTypeList()},
	} {
		for i, name := range tc.names {
			if len(name) <= 15 && tc.m.word(i+1) == nil {
				t.Errorf("%s: %q left out", tc.name, name)
			}
		}
	}
}
