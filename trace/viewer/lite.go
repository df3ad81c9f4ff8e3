package viewer

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// liteTrace reduces a trace (compact, valid UTF-8 JSON, as Write embeds
// it) to what viewer.js's columns reads of it for the first frame, as
// columns of numbers: the page parses a few arrays (a fifth of the whole
// trace's text at 100,000 events) instead of an object per event, and
// draws while the whole trace arrives and is parsed after.
//
//	{"n": events,
//	 "names": [agent, to and from strings, each spelling once, in order of first use],
//	 "types": [event type strings, each spelling once],
//	 "t": [per event: its t if a number, else 0],
//	 "tScale": d, when the times are written as integers (scaledTimes):
//	   then "t" holds per event k - (the previous event's k), t = k / 10^d,
//	 "agent": [per event: index in names of its agent, or of "(no agent)" if not a string],
//	 "type": [per event: index in types, -1 if type is not a string],
//	 "role": [event, role, ...], "tokens": [event, tokens, ...],
//	 "reward": [events with a reward or rewards member],
//	 "to": [spawn event, index in names, ...],
//	 "from": [return event, index in names or -1 if from is not a string, ...],
//	 "tool": [tool_result events whose tool === agent],
//	 "toolCmp": [tool_result event, agent, tool, ...] (the page compares),
//	 "edgeTypes": [edge type strings, each spelling once], "edgeCounts": [edges of each],
//	 "edges": all edges}
//
// columns must read the lite trace exactly as the whole one (the browser
// test TestViewerLite compares them), so the reduction keeps every value
// columns can tell apart, and decides in Go only what needs no
// JavaScript semantics:
//   - strings are kept as spelled (the page's Map joins the spellings of
//     one name, and lone surrogates stay apart as they do in the page);
//   - a member columns tests with typeof for a string or a number is
//     dropped when it is not one (undefined fails the same tests);
//   - a role is dropped once an earlier event of the same agent (the same
//     spelling of its name) had a non-empty string role, which columns
//     keeps;
//   - to is kept only on spawn events, from only on return events, and
//     tool === agent only on tool_result events, where columns reads them.
//     Go decides that test when it can without JavaScript's equality:
//     both missing (true), of different kinds or one of them an object or
//     array (false: no two parsed objects are ===), or both strings
//     without escapes (equal bytes); the other pairs go to toolCmp;
//   - an event or edge that is not an object reads as {}; edges are
//     counted by their type as spelled, those without a string type
//     under none.
//
// Duplicate keys keep the last, as JSON.parse does.
func liteTrace(trace []byte) []byte {
	// The members are read by a scanner of compact, valid JSON (scan.go)
	// as encoding/json would decode them into maps of json.RawMessage
	// (keys unescaped, the last of duplicates kept), without those maps:
	// at a million events the maps took 7 of the 14 s of CPU Write spent.
	var events, edges []byte
	if isObject(trace) {
		eachMember(trace, func(key string, v []byte) {
			switch key {
			case "events":
				events = v
			case "edges":
				edges = v
			}
		})
	} // else not an object: columns reads no events or edges
	var c liteColumns
	c.names.index = map[string]int{}
	c.types.index = map[string]int{}
	roled := map[string]bool{} // agents (as spelled) with a non-empty role
	n := 0
	eachElement(events, func(i int, ev []byte) {
		n++
		var m liteEvent
		if isObject(ev) {
			m.read(ev)
		}
		var typ string
		if v := m.typ; isString(v) {
			typ = unquote(v)
			c.typ.num(c.types.of(v))
		} else {
			c.typ.num(-1)
		}
		if v := m.t; isNumber(v) {
			c.t.raw(v)
			c.times = append(c.times, v)
		} else {
			c.t.raw([]byte("0"))
			c.times = append(c.times, nil)
		}
		agent := json.RawMessage(`"(no agent)"`)
		if v := m.agent; isString(v) {
			agent = v
		}
		c.agent.num(c.names.of(agent))
		if v := m.role; isString(v) && !roled[string(agent)] {
			c.role.num(i)
			c.role.raw(v)
			roled[string(agent)] = string(v) != `""`
		}
		if v := m.tokens; isNumber(v) {
			c.tokens.num(i)
			c.tokens.raw(v)
		}
		if m.reward {
			c.reward.num(i)
		}
		switch typ {
		case "spawn":
			if v := m.to; isString(v) {
				c.to.num(i)
				c.to.num(c.names.of(v))
			}
		case "return":
			c.from.num(i)
			if v := m.from; isString(v) {
				c.from.num(c.names.of(v))
			} else {
				c.from.num(-1)
			}
		case "tool_result":
			a, t := m.agent, m.tool
			switch same, known := strictEqual(a, a != nil, t, t != nil); {
			case !known:
				c.toolCmp.num(i)
				c.toolCmp.raw(a)
				c.toolCmp.raw(t)
			case same:
				c.tool.num(i)
			}
		}
	})
	edgeTypes := table{index: map[string]int{}}
	var counts []int
	nEdges := 0
	eachElement(edges, func(_ int, e []byte) {
		nEdges++
		if !isObject(e) {
			return
		}
		var typ []byte
		eachMember(e, func(key string, v []byte) {
			if key == "type" {
				typ = v
			}
		})
		if !isString(typ) {
			return
		}
		k := edgeTypes.of(typ)
		if k == len(counts) {
			counts = append(counts, 0)
		}
		counts[k]++
	})
	var out bytes.Buffer
	out.WriteString(`{"n":`)
	out.WriteString(strconv.Itoa(n))
	if scale, deltas, ok := scaledTimes(c.times); ok {
		// The times as small integers, which the page parses without
		// allocating a number each (lite.go's comment).
		c.t.Reset()
		for _, d := range deltas {
			c.t.num64(d)
		}
		out.WriteString(`,"tScale":`)
		out.WriteString(strconv.Itoa(scale))
	}
	for _, col := range []struct {
		name string
		list *list
	}{
		{"names", &c.names.list}, {"types", &c.types.list}, {"t", &c.t}, {"agent", &c.agent}, {"type", &c.typ},
		{"role", &c.role}, {"tokens", &c.tokens}, {"reward", &c.reward}, {"to", &c.to}, {"from", &c.from},
		{"tool", &c.tool}, {"toolCmp", &c.toolCmp}, {"edgeTypes", &edgeTypes.list},
	} {
		out.WriteString(`,"` + col.name + `":[`)
		out.Write(col.list.Bytes())
		out.WriteByte(']')
	}
	out.WriteString(`,"edgeCounts":[`)
	for k, n := range counts {
		if k > 0 {
			out.WriteByte(',')
		}
		out.WriteString(strconv.Itoa(n))
	}
	out.WriteString(`],"edges":`)
	out.WriteString(strconv.Itoa(nEdges))
	out.WriteByte('}')
	return out.Bytes()
}

// liteColumns are the arrays of a lite trace being written.
type liteColumns struct {
	names, types                                        table
	t, agent, typ, role, tokens, reward, to, from, tool list
	toolCmp                                             list
	times                                               [][]byte // each event's t as written, nil if not a number
}

// list is the text of a JSON array's elements, comma-separated.
type list struct{ bytes.Buffer }

func (l *list) raw(v []byte) {
	if l.Len() > 0 {
		l.WriteByte(',')
	}
	l.Write(v)
}

func (l *list) num(n int) { l.num64(int64(n)) }

func (l *list) num64(n int64) { l.raw(strconv.AppendInt(nil, n, 10)) }

// maxScale and maxScaled bound scaledTimes: 10^scale is exact in a
// float64, and so are the integers and their differences.
const (
	maxScale  = 9
	maxScaled = 1 << 52
)

// scaledTimes writes times (JSON numbers, nil for 0) as integers k with
// t = k / 10^scale, each given as its difference from the one before,
// when every time is a decimal without exponent, not -0, of at most
// maxScale decimals, and |k| < maxScaled. Then the page's k / 10^scale
// is the time JSON.parse would read: k and 10^scale are exact doubles
// and IEEE division rounds their exact quotient, the decimal itself, as
// parsing rounds it.
func scaledTimes(times [][]byte) (scale int, deltas []int64, ok bool) {
	for _, v := range times {
		if v == nil {
			continue
		}
		whole, frac, _ := bytes.Cut(v, []byte("."))
		if bytes.ContainsAny(v, "eE") || len(frac) > maxScale {
			return 0, nil, false
		}
		if len(whole) > 17 {
			return 0, nil, false
		}
		scale = max(scale, len(frac))
	}
	deltas = make([]int64, len(times))
	var prev int64
	for i, v := range times {
		var k int64
		if v != nil {
			neg := v[0] == '-'
			digits := bytes.TrimPrefix(v, []byte("-"))
			whole, frac, _ := bytes.Cut(digits, []byte("."))
			for _, d := range whole {
				k = k*10 + int64(d-'0')
			}
			for j := range scale {
				k *= 10
				if j < len(frac) {
					k += int64(frac[j] - '0')
				}
				if k >= maxScaled {
					return 0, nil, false
				}
			}
			if k >= maxScaled {
				return 0, nil, false
			}
			if neg {
				if k == 0 {
					return 0, nil, false // -0, which k / 10^scale cannot give
				}
				k = -k
			}
		}
		deltas[i] = k - prev
		prev = k
	}
	return scale, deltas, true
}

// table lists the distinct spellings of strings, in order of first use.
type table struct {
	list
	index map[string]int
}

// of is the index of the string v (as spelled) in the table, added if new.
func (t *table) of(v json.RawMessage) int {
	k, ok := t.index[string(v)]
	if !ok {
		k = len(t.index)
		t.index[string(v)] = k
		t.raw(v)
	}
	return k
}

// strictEqual decides JavaScript's a === b for two members of a parsed
// object (aok, bok: present; a missing one is undefined) when it can
// without parsing: known is false for two numbers, two literals or two
// strings with escapes, which the page compares.
func strictEqual(a json.RawMessage, aok bool, b json.RawMessage, bok bool) (same, known bool) {
	switch {
	case !aok || !bok:
		return aok == bok, true
	case isObject(a) || isObject(b) || isArray(a) || isArray(b):
		return false, true
	case kind(a) != kind(b):
		return false, true
	case kind(a) != '"' && kind(a) != '0': // true, false or null, both
		return true, true
	case isString(a) && !bytes.ContainsRune(a, '\\') && !bytes.ContainsRune(b, '\\'):
		return bytes.Equal(a, b), true
	}
	return false, false
}

// kind tells strings, numbers and the literals apart (true, false, null
// each their own kind).
func kind(v json.RawMessage) byte {
	if isNumber(v) {
		return '0'
	}
	return v[0]
}

// isObject, isArray, isString and isNumber tell the kind of v, compact
// JSON.
func isObject(v json.RawMessage) bool { return len(v) > 0 && v[0] == '{' }
func isArray(v json.RawMessage) bool  { return len(v) > 0 && v[0] == '[' }
func isString(v json.RawMessage) bool { return len(v) > 0 && v[0] == '"' }
func isNumber(v json.RawMessage) bool {
	return len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9')
}
