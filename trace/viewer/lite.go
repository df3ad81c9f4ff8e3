package viewer

import (
	"bytes"
	"encoding/json"
)

// liteTrace reduces a trace (compact, valid UTF-8 JSON, as Write embeds
// it) to what viewer.js's columns reads of it for the first frame: per
// event t, agent, type, the first role of each agent, tokens, whether it
// has a reward, and to, from or tool where its type makes columns read
// them; per edge its type. The page parses it (a fifth to a third of the
// whole trace's text) and draws, while the whole trace arrives and is
// parsed after.
//
// columns must read the lite trace exactly as the whole one (the browser
// test TestViewerLite compares them), so the reduction drops only what
// columns cannot see:
//   - a member columns tests with typeof for a string or a number is
//     dropped when it is not one (undefined fails the same tests);
//   - role is dropped once an earlier event of the same agent (the same
//     spelling of its name) had a non-empty string role, which columns
//     keeps;
//   - to is kept only on spawn events, from only on return events, tool
//     only on tool_result events, where columns reads them; there tool,
//     and agent, which columns compare with ===, are kept when they are a
//     string, number, boolean or null, and an object or array becomes {}
//     (a fresh object, as each parsed one is: no two are ===);
//   - reward and rewards, tested only for presence, become "reward":0;
//   - an event or edge that is not an object becomes {} (columns reads
//     such as {}).
//
// Duplicate keys keep the last, as JSON.parse does.
func liteTrace(trace []byte) []byte {
	var out bytes.Buffer
	out.WriteString(`{"events":[`)
	var top map[string]json.RawMessage
	if json.Unmarshal(trace, &top) != nil {
		top = nil // not an object: columns reads no events or edges
	}
	roled := map[string]bool{} // agents (as spelled) with a non-empty role
	for k, ev := range arrayOf(top["events"]) {
		if k > 0 {
			out.WriteByte(',')
		}
		var m map[string]json.RawMessage
		if !isObject(ev) || json.Unmarshal(ev, &m) != nil {
			out.WriteString("{}")
			continue
		}
		n := 0
		member := func(key string, v []byte) {
			if n == 0 {
				out.WriteByte('{')
			} else {
				out.WriteByte(',')
			}
			n++
			out.WriteByte('"')
			out.WriteString(key)
			out.WriteString(`":`)
			out.Write(v)
		}
		var typ string
		if v := m["type"]; isString(v) {
			_ = json.Unmarshal(v, &typ)
		}
		if v := m["t"]; isNumber(v) {
			member("t", v)
		}
		agent := json.RawMessage(`"(no agent)"`)
		switch v, ok := m["agent"]; {
		case isString(v):
			agent = v
			member("agent", v)
		case ok && typ == "tool_result":
			member("agent", scalarOr(v))
		}
		if v := m["type"]; isString(v) {
			member("type", v)
		}
		if v := m["role"]; isString(v) && !roled[string(agent)] {
			member("role", v)
			roled[string(agent)] = string(v) != `""`
		}
		if v := m["tokens"]; isNumber(v) {
			member("tokens", v)
		}
		_, r1 := m["reward"]
		_, r2 := m["rewards"]
		if r1 || r2 {
			member("reward", []byte("0"))
		}
		switch typ {
		case "spawn":
			if v := m["to"]; isString(v) {
				member("to", v)
			}
		case "return":
			if v := m["from"]; isString(v) {
				member("from", v)
			}
		case "tool_result":
			if v, ok := m["tool"]; ok {
				member("tool", scalarOr(v))
			}
		}
		if n == 0 {
			out.WriteString("{}")
		} else {
			out.WriteByte('}')
		}
	}
	out.WriteString(`],"edges":[`)
	for k, e := range arrayOf(top["edges"]) {
		if k > 0 {
			out.WriteByte(',')
		}
		var m map[string]json.RawMessage
		if !isObject(e) || json.Unmarshal(e, &m) != nil || !isString(m["type"]) {
			out.WriteString("{}")
			continue
		}
		out.WriteString(`{"type":`)
		out.Write(m["type"])
		out.WriteByte('}')
	}
	out.WriteString("]}")
	return out.Bytes()
}

// arrayOf returns the elements of a JSON array, or none if v is not one.
func arrayOf(v json.RawMessage) []json.RawMessage {
	var a []json.RawMessage
	if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &a) != nil {
		return nil
	}
	return a
}

// isObject, isString and isNumber tell the kind of v, compact JSON.
func isObject(v json.RawMessage) bool { return len(v) > 0 && v[0] == '{' }
func isString(v json.RawMessage) bool { return len(v) > 0 && v[0] == '"' }
func isNumber(v json.RawMessage) bool {
	return len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9')
}

// scalarOr returns v if it is a string, number, boolean or null, else {}.
func scalarOr(v json.RawMessage) json.RawMessage {
	if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
		return json.RawMessage("{}")
	}
	return v
}
