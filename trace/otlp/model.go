package otlp

import (
	"cmp"
	"slices"
	"strings"

	"github.com/masrl/masrl/trace"
)

// model fills t with the orchestration trace the builder made, for
// trace's encoder to write, and returns it. Events are ordered by time
// (ties by creation), edges by their events' order. t's event and edge
// slices are reused: a build worker passes the same t for every trace, so
// that the model costs no allocation per event but the ids' string.
func (b *builder) model(t *trace.Trace) *trace.Trace {
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

	// The ids (SPANID/suffix) and content references (otel:TRACEID/SPANID;
	// a joined conversation holds several traces) of all events are
	// substrings of one string: one allocation for the lot, not two an
	// event. Events made one after the other from the same span (a call
	// and its result, a spawn and its return) share their reference.
	// at[e] holds where event e's id starts and ends, then its reference.
	size := 0
	for e := range b.events {
		size += 2*8 + 1 + len(b.events[e].suffix) + len("otel:") + 2*16 + 1 + 2*8
	}
	var sb strings.Builder
	sb.Grow(size)
	at := make([][4]int, len(b.events))
	var hexID [2 * 8]byte
	var hexTrace [2 * 16]byte
	for e := range b.events {
		ev := &b.events[e]
		s := &b.spans[ev.span]
		appendHex(hexID[:0], s.id[:])
		at[e][0] = sb.Len()
		sb.Write(hexID[:])
		sb.WriteByte('/')
		sb.WriteString(ev.suffix)
		at[e][1] = sb.Len()
		if e > 0 && b.events[e-1].span == ev.span {
			at[e][2], at[e][3] = at[e-1][2], at[e-1][3]
			continue
		}
		appendHex(hexTrace[:0], s.trace[:])
		at[e][2] = sb.Len()
		sb.WriteString("otel:")
		sb.Write(hexTrace[:])
		sb.WriteByte('/')
		sb.Write(hexID[:])
		at[e][3] = sb.Len()
	}
	all := sb.String()
	id := func(e int) string { return all[at[e][0]:at[e][1]] }

	*t = trace.Trace{TraceID: b.thex, Topology: b.stats.Topology,
		Events:  slices.Grow(t.Events[:0], len(order))[:len(order)],
		Edges:   slices.Grow(t.Edges[:0], len(b.edges))[:len(b.edges)],
		Rewards: b.stats.Rewards,
		Costs: trace.TraceCosts{Tokens: b.stats.Tokens, WallClockS: b.stats.WallClockS,
			ToolCalls: b.stats.ToolCalls, Messages: b.stats.Messages}}
	// The task: --task, else the AI SDK's ai.telemetry.functionId on the
	// root (its span name is only the operation, ai.generateText), else
	// the root span's name.
	t.TaskID = b.opts.Task
	if t.TaskID == "" {
		t.TaskID = b.spans[b.root].functionID
	}
	if t.TaskID == "" {
		t.TaskID = b.spans[b.root].name
	}
	if t.TaskID == "" {
		t.TaskID = "otel"
	}
	if sys := b.spans[b.root].service; sys != "" && !unknownService(sys) {
		t.System = sys
	}
	for k, e := range order {
		ev := &b.events[e]
		t.Events[k] = trace.Event{ID: id(e), T: seconds(ev.ns), Type: ev.typ,
			Agent: orDefault(ev.agent, "agent"), From: ev.from, To: ev.to, Tool: ev.tool,
			ToolCallID: ev.callID, Error: ev.err, ConversationID: ev.conv,
			ContentRef: all[at[e][2]:at[e][3]]}
	}
	for k, e := range b.edges {
		t.Edges[k] = trace.Edge{Src: id(e.src), Dst: id(e.dst), Type: e.typ}
	}
	if b.hasDetails {
		t.Costs.TokenDetails = &trace.TokenDetails{CacheReadTokens: b.cacheRead,
			CacheWriteTokens: b.cacheWrite, ReasoningTokens: b.reasoning}
	}
	return t
}

func appendHex(out []byte, id []byte) []byte {
	const digits = "0123456789abcdef"
	for _, c := range id {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
