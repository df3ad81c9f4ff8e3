package trace

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/masrl/masrl/internal/suggest"
)

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
