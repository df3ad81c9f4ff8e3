package otlp

import (
	"cmp"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encode writes the orchestration trace. Events are ordered by time (ties
// by creation), edges by their events' order; every name is escaped, so
// the output is valid JSON whatever the spans held.
func (b *builder) encode() []byte {
	order := make([]int, len(b.events))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int {
		if c := cmp.Compare(b.events[x].ns, b.events[y].ns); c != 0 {
			return c
		}
		return cmp.Compare(b.events[x].seq, b.events[y].seq)
	})
	rank := make([]int, len(b.events))
	for r, e := range order {
		rank[e] = r
	}
	slices.SortFunc(b.edges, func(x, y edge) int {
		if c := cmp.Compare(rank[x.src], rank[y.src]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank[x.dst], rank[y.dst]); c != 0 {
			return c
		}
		return cmp.Compare(x.typ, y.typ)
	})
	b.stats.Events, b.stats.Edges = len(b.events), len(b.edges)

	nl, ind, ind2 := "\n", "  ", "    "
	if b.opts.Compact {
		nl, ind, ind2 = "", "", ""
	}
	out := make([]byte, 0, 256+160*len(b.events)+80*len(b.edges))
	out = append(out, '{')
	out = append(out, nl+ind...)
	out = appendKey(out, "trace_id", b.opts.Compact)
	out = appendString(out, b.thex)
	// The task: --task, else the AI SDK's ai.telemetry.functionId on the
	// root (its span name is only the operation, ai.generateText), else
	// the root span's name.
	task := b.opts.Task
	if task == "" {
		task = b.spans[b.root].functionID
	}
	if task == "" {
		task = b.spans[b.root].name
	}
	if task == "" {
		task = "otel"
	}
	out = append(out, ","+nl+ind...)
	out = appendKey(out, "task_id", b.opts.Compact)
	out = appendString(out, task)
	if sys := b.spans[b.root].service; sys != "" && !unknownService(sys) {
		out = append(out, ","+nl+ind...)
		out = appendKey(out, "system", b.opts.Compact)
		out = appendString(out, sys)
	}
	out = append(out, ","+nl+ind...)
	out = appendKey(out, "topology", b.opts.Compact)
	out = appendString(out, b.stats.Topology)
	out = append(out, ","+nl+ind...)
	out = appendKey(out, "events", b.opts.Compact)
	out = append(out, '[')
	for k, e := range order {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, nl+ind2...)
		out = b.appendEvent(out, e)
	}
	out = append(out, nl+ind+"],"+nl+ind...)
	out = appendKey(out, "edges", b.opts.Compact)
	out = append(out, '[')
	for k, e := range b.edges {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, nl+ind2...)
		out = append(out, `{"src":`...)
		out = b.appendID(out, e.src)
		out = append(out, `,"dst":`...)
		out = b.appendID(out, e.dst)
		out = append(out, `,"type":`...)
		out = appendString(out, e.typ)
		out = append(out, '}')
	}
	if len(b.edges) > 0 {
		out = append(out, nl+ind...)
	}
	out = append(out, "],"+nl+ind...)
	out = appendKey(out, "rewards", b.opts.Compact)
	out = append(out, '{')
	for k, name := range slices.Sorted(mapsKeys(b.stats.Rewards)) {
		if k > 0 {
			out = append(out, ',')
		}
		out = appendString(out, name)
		out = append(out, ':')
		out = appendNumber(out, b.stats.Rewards[name])
	}
	out = append(out, "},"+nl+ind...)
	out = appendKey(out, "costs", b.opts.Compact)
	out = append(out, `{"tokens":`...)
	out = strconv.AppendInt(out, b.stats.Tokens, 10)
	out = append(out, `,"wall_clock_s":`...)
	out = appendNumber(out, b.stats.WallClockS)
	out = append(out, `,"tool_calls":`...)
	out = strconv.AppendInt(out, int64(b.stats.ToolCalls), 10)
	out = append(out, `,"messages":`...)
	out = strconv.AppendInt(out, int64(b.stats.Messages), 10)
	if b.hasDetails {
		// Parts of tokens, not added to it: the input tokens read from or
		// written to the provider's cache, and the output tokens spent on
		// reasoning.
		out = append(out, `,"cache_read_tokens":`...)
		out = strconv.AppendInt(out, b.cacheRead, 10)
		out = append(out, `,"cache_write_tokens":`...)
		out = strconv.AppendInt(out, b.cacheWrite, 10)
		out = append(out, `,"reasoning_tokens":`...)
		out = strconv.AppendInt(out, b.reasoning, 10)
	}
	out = append(out, '}')
	out = append(out, nl+"}\n"...)
	return out
}

func appendKey(out []byte, k string, compact bool) []byte {
	out = append(out, '"')
	out = append(out, k...)
	if compact {
		return append(out, `":`...)
	}
	return append(out, `": `...)
}

func (b *builder) appendID(out []byte, e int) []byte {
	ev := &b.events[e]
	out = append(out, '"')
	out = appendHex(out, b.spans[ev.span].id[:])
	out = append(out, '/')
	out = append(out, ev.suffix...)
	return append(out, '"')
}

func appendHex(out []byte, id []byte) []byte {
	const digits = "0123456789abcdef"
	for _, c := range id {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

func (b *builder) appendEvent(out []byte, e int) []byte {
	ev := &b.events[e]
	out = append(out, `{"id":`...)
	out = b.appendID(out, e)
	out = append(out, `,"t":`...)
	out = appendNumber(out, seconds(ev.ns))
	out = append(out, `,"type":`...)
	out = appendString(out, ev.typ)
	out = append(out, `,"agent":`...)
	out = appendString(out, orDefault(ev.agent, "agent"))
	for _, f := range [...]struct{ k, v string }{{"from", ev.from}, {"to", ev.to}, {"tool", ev.tool},
		{"tool_call_id", ev.callID}, {"error", ev.err}, {"conversation_id", ev.conv}} {
		if f.v != "" {
			out = append(out, `,"`+f.k+`":`...)
			out = appendString(out, f.v)
		}
	}
	out = append(out, `,"content_ref":"otel:`...)
	out = appendHex(out, b.spans[ev.span].trace[:]) // a joined conversation holds several traces
	out = append(out, '/')
	out = appendHex(out, b.spans[ev.span].id[:])
	return append(out, `"}`...)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// appendNumber writes a finite float in the shortest form that reads back
// to the same value. Non-finite values (which JSON cannot hold) are 0.
func appendNumber(out []byte, f float64) []byte {
	if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
		return append(out, '0')
	}
	return strconv.AppendFloat(out, f, 'g', -1, 64)
}

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func appendString(out []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				out = append(out, '\\', c)
			case c < 0x20:
				out = append(out, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&15])
			default:
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			out = append(out, '\\', 'u', '2', '0', '2', hexd[r&15])
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return append(out, '"')
}
