package viewer

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// A scanner of JSON text already known to be valid, for the passes of
// Write over a whole trace that need a few members of each event and
// nothing else: encoding/json decoded every event into a map to read
// them (liteTrace, staticRows), most of Write's CPU on a large trace. The
// scanner checks nothing; its callers run it only on text that
// json.Valid accepts (json.Compact's output, or what json.Unmarshal has
// checked), where whitespace may sit between tokens but not inside them.

// skipSpace returns the index of the first byte at or after i that is
// not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value that starts at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	// A number, true, false or null: up to the next delimiter.
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// eachMember calls f with each member of the object obj (starting with
// '{') in order: the key unescaped as encoding/json unescapes it, and the
// value's text.
func eachMember(obj []byte, f func(key string, v []byte)) {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		end := skipString(obj, i)
		key := unquote(obj[i:end])
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // past the colon
		vend := skipValue(obj, i)
		f(key, obj[i:vend])
		i = skipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

// eachElement calls f with the index and the text of each element of
// arr, in order; none if arr is not an array.
func eachElement(arr []byte, f func(i int, v []byte)) {
	if !isArray(arr) {
		return
	}
	i := skipSpace(arr, 1)
	for k := 0; i < len(arr) && arr[i] != ']'; k++ {
		end := skipValue(arr, i)
		f(k, arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// unquote is the string s (a JSON string's text, quotes included) as
// encoding/json decodes it: without escapes it is the text between the
// quotes (valid UTF-8 where the caller's text is), else encoding/json
// decodes it, lone surrogates and all.
func unquote(s []byte) string {
	for _, c := range s[1 : len(s)-1] {
		if c == '\\' || c >= 0x80 {
			var v string
			_ = json.Unmarshal(s, &v)
			return v
		}
	}
	return string(s[1 : len(s)-1])
}

// numbersFit reports whether every number in v fits a float64, which
// encoding/json needs to decode v into a map[string]any: a number it
// cannot (1e400) fails the whole decoding.
func numbersFit(v []byte) bool {
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == '"':
			i = skipString(v, i)
		case c == '-' || c >= '0' && c <= '9':
			end := skipValue(v, i)
			num := v[i:end]
			if len(num) >= 300 || bytes.ContainsAny(num, "eE") {
				if _, err := strconv.ParseFloat(string(num), 64); err != nil {
					return false
				}
			}
			i = end
		default:
			i++
		}
	}
	return true
}

// liteEvent holds the members of an event liteTrace reads, each the text
// of the last member of that name, nil where there is none.
type liteEvent struct {
	typ, t, agent, role, tokens, to, from, tool []byte
	reward                                      bool // a reward or rewards member
}

func (m *liteEvent) read(ev []byte) {
	eachMember(ev, func(key string, v []byte) {
		switch key {
		case "type":
			m.typ = v
		case "t":
			m.t = v
		case "agent":
			m.agent = v
		case "role":
			m.role = v
		case "tokens":
			m.tokens = v
		case "to":
			m.to = v
		case "from":
			m.from = v
		case "tool":
			m.tool = v
		case "reward", "rewards":
			m.reward = true
		}
	})
}
