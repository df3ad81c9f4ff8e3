package trace

import (
	"math/bits"
	"slices"
	"strings"
)

// objectSpec is one object schema as the member loop reads it, assembled
// from the generated tables (tables_gen.go).
type objectSpec struct {
	// names are the declared properties in bit order; bit maps a name to
	// its bit (0 when undeclared); keys, if not nil, matches the plainly
	// written names in the buffer, with codes in bit order.
	names []string
	bit   func(string) int
	keys  *wordMatcher
	// required is the mask of the required properties.
	required uint64
	// closed reports undeclared members (additionalProperties false).
	closed bool
	// capture hands each member's bytes to the library (the top level).
	capture bool
}

func topSpec() *objectSpec {
	k := topKeys()
	return &objectSpec{names: k[:], bit: topBit, required: topRequired, closed: topClosed, capture: true}
}

func eventSpec() *objectSpec {
	k := evKeys()
	return &objectSpec{names: k[:], bit: evBit, keys: newWordMatcher(k[:]), required: evRequired, closed: evClosed}
}

func edgeSpec() *objectSpec {
	k := edKeys()
	return &objectSpec{names: k[:], bit: edBit, keys: newWordMatcher(k[:]), required: edRequired, closed: edClosed}
}

func costsSpec() *objectSpec {
	k := costKeys()
	return &objectSpec{names: k[:], bit: costBit, required: costRequired, closed: costClosed}
}

// numbersSpec is an object of numbers without declared properties
// (rewards, metrics).
func numbersSpec() *objectSpec {
	return &objectSpec{bit: func(string) int { return 0 }}
}

// members walks the members of one object. next reads each key, finds its
// bit among the declared properties, and reports duplicate keys and, for a
// closed object, undeclared ones; the caller reads each value. It is the
// one loop over the members of the trace, its events, edges and objects
// of numbers.
type members struct {
	spec  *objectSpec
	start pos // the object's '{'
	keys  keySet
	n     int

	extra   []string
	extraAt pos

	// The current member: its bit (0 if undeclared), its key (valid until
	// the next member) and where the key is.
	bit int
	key string
	at  pos
}

// open starts reading the object at the scanner's '{'.
func (c *checker) open(m *members, spec *objectSpec) {
	*m = members{spec: spec, start: c.s.here()}
	c.s.i++
}

// next reads the next member's key and ':'; it returns false after the
// closing '}'.
func (c *checker) next(m *members) (bool, error) {
	if m.n == 0 {
		if !c.s.first('}') {
			return false, nil
		}
	} else if more, err := c.s.more('}'); err != nil || !more {
		return false, err
	}
	m.n++
	if m.spec.capture {
		c.startMember()
	}
	bit, key, at, err := c.memberBit(m.spec.keys)
	if err != nil {
		return false, err
	}
	if bit == 0 {
		bit = m.spec.bit(key)
	}
	m.bit, m.at = bit, at
	if bit != 0 {
		m.key = m.spec.names[bits.TrailingZeros(uint(bit))]
		if m.keys.mask&uint64(bit) != 0 {
			c.duplicate(at, m.key)
		}
		m.keys.mask |= uint64(bit)
		return true, nil
	}
	m.key = strings.Clone(key)
	if m.keys.addOther(m.key) {
		c.duplicate(at, m.key)
	}
	if m.spec.closed {
		if len(m.extra) == 0 {
			m.extraAt = at
		}
		m.extra = append(m.extra, m.key)
	}
	return true, nil
}

// close reports, after the object, its undeclared members (if it is
// closed) and its missing required properties.
func (c *checker) close(m *members) {
	if len(m.extra) > 0 {
		c.schemaf(m.extraAt, "additional properties %s not allowed", quoteList(m.extra))
	}
	if missing := m.spec.required &^ m.keys.mask; missing != 0 {
		var names []string
		for i, name := range m.spec.names {
			if missing&(1<<i) != 0 {
				names = append(names, name)
			}
		}
		c.schemaf(m.start, "missing properties %s", quoteList(names))
	}
}

// skipMember reads the value of an undeclared member, which any JSON value
// satisfies.
func (c *checker) skipMember(m *members, depth int) error {
	c.push(m.key)
	err := c.skipValue(depth)
	c.pop()
	return err
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
	if slices.Contains(k.other, key) {
		return true
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
