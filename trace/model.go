package trace

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// Trace is an orchestration trace (schema/trace.schema.json) as Go values,
// so that code that writes traces builds a typed value and one encoder
// (AppendJSON) writes it, instead of each writer spelling the format by
// hand. Its JSON names are the schema's: TestModelMatchesSchema fails when
// the schema gains a property the model lacks, or the model a member the
// schema does not allow. The event and edge types are the constants
// generated from the schema (EventSpawn, EdgeCausal, ...).
type Trace struct {
	TraceID string `json:"trace_id"`
	TaskID  string `json:"task_id"`
	// System and Topology are left out when empty.
	System   string             `json:"system,omitempty"`
	Topology string             `json:"topology,omitempty"`
	Events   []Event            `json:"events"`
	Edges    []Edge             `json:"edges"`
	Rewards  map[string]float64 `json:"rewards"`
	Costs    TraceCosts         `json:"costs"`
	// Metrics is left out when empty.
	Metrics map[string]float64 `json:"metrics,omitempty"`
}

// Event is one orchestration step (#/$defs/event). Events allow further
// members; the model has those the importer writes (ToolCallID, Error,
// ConversationID), which TestModelMatchesSchema lists as extensions.
type Event struct {
	ID    string    `json:"id"`
	T     float64   `json:"t"`
	Type  EventType `json:"type"`
	Agent string    `json:"agent"`
	// The optional members are left out when empty.
	Role string `json:"role,omitempty"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Tool string `json:"tool,omitempty"`
	// ToolCallID is the tool call id a tool event answers; an extension.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Error is what went wrong in the step; an extension.
	Error string `json:"error,omitempty"`
	// ConversationID is the conversation the step belongs to; an extension.
	ConversationID string `json:"conversation_id,omitempty"`
	ContentRef     string `json:"content_ref,omitempty"`
	Trusted        *bool  `json:"trusted,omitempty"`
}

// Edge is a typed relation between two events (#/$defs/edge).
type Edge struct {
	Src  string   `json:"src"`
	Dst  string   `json:"dst"`
	Type EdgeType `json:"type"`
}

// TraceCosts is #/properties/costs. Counts are integers, so that they are
// written as such (a float would write 1e+06). ToolCalls and Messages are
// always written.
type TraceCosts struct {
	Tokens     int64   `json:"tokens"`
	WallClockS float64 `json:"wall_clock_s"`
	ToolCalls  int     `json:"tool_calls"`
	Messages   int     `json:"messages"`
	// TokenDetails, when not nil, adds the parts of Tokens a provider
	// reports (costs allow further numbers).
	*TokenDetails
}

// TokenDetails are parts of the tokens, not added to them: the input
// tokens read from or written to the provider's cache, and the output
// tokens spent on reasoning. All three are written together.
type TokenDetails struct {
	CacheReadTokens  int64 `json:"cache_read_tokens"`
	CacheWriteTokens int64 `json:"cache_write_tokens"`
	ReasoningTokens  int64 `json:"reasoning_tokens"`
}

// AppendJSON appends the trace as JSON to out and returns the result. The
// output depends only on t: members in the model's order, events and
// edges in their slices' order, rewards and metrics by name. Indented by
// two spaces with one event or edge a line, or on one line when compact.
// Every string is escaped (invalid UTF-8 becomes U+FFFD), and a number
// JSON cannot hold (NaN, infinity) is written as 0, so the output is valid
// JSON whatever t holds.
func (t *Trace) AppendJSON(out []byte, compact bool) []byte {
	nl, ind, ind2 := "\n", "  ", "    "
	if compact {
		nl, ind, ind2 = "", "", ""
	}
	sep := ": "
	if compact {
		sep = ":"
	}
	key := func(out []byte, k string) []byte {
		out = append(out, ","+nl+ind+`"`...)
		out = append(out, k...)
		return append(out, `"`+sep...)
	}
	out = append(out, "{"+nl+ind+`"trace_id"`+sep...)
	out = appendJSONString(out, t.TraceID)
	out = key(out, "task_id")
	out = appendJSONString(out, t.TaskID)
	if t.System != "" {
		out = key(out, "system")
		out = appendJSONString(out, t.System)
	}
	if t.Topology != "" {
		out = key(out, "topology")
		out = appendJSONString(out, t.Topology)
	}
	out = key(out, "events")
	out = append(out, '[')
	for k := range t.Events {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, nl+ind2...)
		out = t.Events[k].appendJSON(out)
	}
	if len(t.Events) > 0 {
		out = append(out, nl+ind...)
	}
	out = append(out, ']')
	out = key(out, "edges")
	out = append(out, '[')
	for k, e := range t.Edges {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, nl+ind2...)
		out = append(out, `{"src":`...)
		out = appendJSONString(out, e.Src)
		out = append(out, `,"dst":`...)
		out = appendJSONString(out, e.Dst)
		out = append(out, `,"type":`...)
		out = appendJSONString(out, string(e.Type))
		out = append(out, '}')
	}
	if len(t.Edges) > 0 {
		out = append(out, nl+ind...)
	}
	out = append(out, ']')
	out = key(out, "rewards")
	out = appendNumbers(out, t.Rewards)
	out = key(out, "costs")
	c := &t.Costs
	out = append(out, `{"tokens":`...)
	out = strconv.AppendInt(out, c.Tokens, 10)
	out = append(out, `,"wall_clock_s":`...)
	out = appendJSONNumber(out, c.WallClockS)
	out = append(out, `,"tool_calls":`...)
	out = strconv.AppendInt(out, int64(c.ToolCalls), 10)
	out = append(out, `,"messages":`...)
	out = strconv.AppendInt(out, int64(c.Messages), 10)
	if d := c.TokenDetails; d != nil {
		out = append(out, `,"cache_read_tokens":`...)
		out = strconv.AppendInt(out, d.CacheReadTokens, 10)
		out = append(out, `,"cache_write_tokens":`...)
		out = strconv.AppendInt(out, d.CacheWriteTokens, 10)
		out = append(out, `,"reasoning_tokens":`...)
		out = strconv.AppendInt(out, d.ReasoningTokens, 10)
	}
	out = append(out, '}')
	if len(t.Metrics) > 0 {
		out = key(out, "metrics")
		out = appendNumbers(out, t.Metrics)
	}
	return append(out, nl+"}\n"...)
}

// appendJSON writes the event on one line, members in the model's order.
func (e *Event) appendJSON(out []byte) []byte {
	out = append(out, `{"id":`...)
	out = appendJSONString(out, e.ID)
	out = append(out, `,"t":`...)
	out = appendJSONNumber(out, e.T)
	out = append(out, `,"type":`...)
	out = appendJSONString(out, string(e.Type))
	out = append(out, `,"agent":`...)
	out = appendJSONString(out, e.Agent)
	for _, f := range [...]struct{ k, v string }{{`,"role":`, e.Role}, {`,"from":`, e.From},
		{`,"to":`, e.To}, {`,"tool":`, e.Tool}, {`,"tool_call_id":`, e.ToolCallID},
		{`,"error":`, e.Error}, {`,"conversation_id":`, e.ConversationID}, {`,"content_ref":`, e.ContentRef}} {
		if f.v != "" {
			out = append(out, f.k...)
			out = appendJSONString(out, f.v)
		}
	}
	if e.Trusted != nil {
		out = append(out, `,"trusted":`...)
		out = strconv.AppendBool(out, *e.Trusted)
	}
	return append(out, '}')
}

// appendNumbers writes an object of numbers, its members by name.
func appendNumbers(out []byte, m map[string]float64) []byte {
	out = append(out, '{')
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, k)
		out = append(out, ':')
		out = appendJSONNumber(out, m[k])
	}
	return append(out, '}')
}

// appendJSONNumber writes a finite float in the shortest form that reads
// back to the same value. Non-finite values (which JSON cannot hold) are 0.
func appendJSONNumber(out []byte, f float64) []byte {
	if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
		return append(out, '0')
	}
	return strconv.AppendFloat(out, f, 'g', -1, 64)
}

// plain8 reports whether none of the eight bytes of x is below 0x20, a
// quote, a backslash or above 0x7f: whether they are written as they are.
// (x - 0x01…·n) & ^x & 0x80… is nonzero exactly when some byte of x is
// below n (n ≤ 0x80); a byte equal to v is a zero byte of x ^ 0x01…·v.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := func(x uint64, n uint64) uint64 { return (x - ones*n) & ^x & highs }
	return (x&highs)|below(x, 0x20)|below(x^(ones*'"'), 1)|below(x^(ones*'\\'), 1) == 0
}

// appendJSONString writes s as a JSON string. Invalid UTF-8 becomes
// U+FFFD; U+2028 and U+2029 are escaped, so the output is also valid
// JavaScript. Runs of bytes that need no escape are copied whole: most
// strings (ids, names) are one such run.
func appendJSONString(out []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight bytes at a time while none needs a look.
		for i+8 <= len(s) && plain8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			if c < 0x20 {
				out = append(out, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&15])
			} else {
				out = append(out, '\\', c)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hexd[r&15])
			start = i + size
		}
		i += size
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
