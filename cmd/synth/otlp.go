package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// runOTLP writes synthetic OTLP/JSON lines, shaped like the collector's
// file exporter output of agent runs: batches of spans of several traces
// running at once, each trace's children ending (and so exported) before
// its root, GenAI attributes with prompt-sized text.
func runOTLP(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("otlp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spans := fs.Int("spans", 100000, "number of spans")
	perTrace := fs.Int("trace-spans", 200, "spans per trace (the last trace may be smaller)")
	batch := fs.Int("batch", 512, "spans per line (the collector batch processor's default size)")
	concurrent := fs.Int("concurrent", 8, "traces running at once, whose spans interleave")
	seed := fs.Uint64("seed", 1, "random seed; the same flags give the same bytes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *spans < 1 || *perTrace < 2 || *batch < 1 || *concurrent < 1 {
		fmt.Fprintln(stderr, "usage: synth otlp [-spans N] [-trace-spans N] [-batch N] [-concurrent N] [-seed S]")
		return 2
	}
	w := bufio.NewWriterSize(stdout, 1<<20)
	g := otlpGen{rng: rand.New(rand.NewPCG(*seed, 0x6f746c70)), seed: *seed}
	if err := g.write(w, *spans, *perTrace, *batch, *concurrent); err != nil {
		fmt.Fprintln(stderr, "synth otlp:", err)
		return 2
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(stderr, "synth otlp:", err)
		return 2
	}
	return 0
}

type otlpGen struct {
	rng    *rand.Rand
	seed   uint64
	traces uint64
}

// genSpan is one span of a synthetic trace, in the order it ends.
type genSpan struct {
	id, parent uint64
	kind       byte // 'r' root agent, 'w' worker agent, 'c' chat, 't' tool
	name       string
	start, end int64 // nanoseconds after the run's start
}

type genTrace struct {
	id    [16]byte
	spans []genSpan
	next  int
}

// newTrace plans a trace of n spans: a root agent, workers of up to 24
// children each (chats and tool calls in turn), every child ending before
// its worker and every worker before the root.
func (g *otlpGen) newTrace(n int, t0 int64) *genTrace {
	g.traces++
	tr := &genTrace{}
	binary.BigEndian.PutUint64(tr.id[:8], g.seed<<32|0x6f746c70)
	binary.BigEndian.PutUint64(tr.id[8:], g.traces)
	var sid uint64 = 1
	root := genSpan{id: sid, kind: 'r', name: "orchestrator", start: t0}
	left := n - 1
	end := t0
	for w := 0; left > 0; w++ {
		sid++
		worker := genSpan{id: sid, parent: root.id, kind: 'w', name: "worker-" + strconv.Itoa(w), start: t0 + int64(w)*10e6}
		t := worker.start + 1e6
		kids := min(24, left-1)
		for k := range kids {
			sid++
			d := int64(50e6 + g.rng.IntN(400e6))
			c := genSpan{id: sid, parent: worker.id, kind: "ct"[k%2], start: t, end: t + d}
			c.name = "chat gpt-4o-mini"
			if c.kind == 't' {
				c.name = "execute_tool tool-" + strconv.Itoa(g.rng.IntN(8))
			}
			tr.spans = append(tr.spans, c)
			t = c.end + 1e6
		}
		worker.end = t
		tr.spans = append(tr.spans, worker)
		end = max(end, t)
		left -= 1 + kids
	}
	root.end = end + 5e6
	tr.spans = append(tr.spans, root)
	return tr
}

func (g *otlpGen) write(w *bufio.Writer, total, perTrace, batch, concurrent int) error {
	const base = int64(1767323045000000000) // 2026-01-02T03:04:05Z
	var running []*genTrace
	planned, written := 0, 0
	var line []byte
	inLine := 0
	flush := func() error {
		if inLine == 0 {
			return nil
		}
		line = append(line, "]}]}]}\n"...)
		_, err := w.Write(line)
		line, inLine = line[:0], 0
		return err
	}
	var clock int64
	for written < total {
		for len(running) < concurrent && planned < total {
			n := min(perTrace, total-planned)
			if rest := total - planned - n; rest == 1 {
				n++ // no one-span trace at the end
			}
			running = append(running, g.newTrace(n, clock))
			planned += n
			clock += 3e9
		}
		i := g.rng.IntN(len(running))
		tr := running[i]
		s := tr.spans[tr.next]
		tr.next++
		if tr.next == len(tr.spans) {
			running = append(running[:i], running[i+1:]...)
		}
		if inLine == 0 {
			line = append(line, `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"synth-agents"}}]},"scopeSpans":[{"scope":{"name":"synth"},"spans":[`...)
		} else {
			line = append(line, ',')
		}
		line = g.appendSpan(line, tr, s, base)
		inLine++
		written++
		if inLine == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// prompt is prompt-sized text, so that lines weigh what real ones do.
const prompt = "Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. "

func (g *otlpGen) appendSpan(b []byte, tr *genTrace, s genSpan, base int64) []byte {
	hexID := func(b []byte, v []byte) []byte {
		const d = "0123456789abcdef"
		for _, c := range v {
			b = append(b, d[c>>4], d[c&15])
		}
		return b
	}
	var sp [8]byte
	b = append(b, `{"traceId":"`...)
	b = hexID(b, tr.id[:])
	b = append(b, `","spanId":"`...)
	binary.BigEndian.PutUint64(sp[:], s.id)
	b = hexID(b, sp[:])
	if s.parent != 0 {
		b = append(b, `","parentSpanId":"`...)
		binary.BigEndian.PutUint64(sp[:], s.parent)
		b = hexID(b, sp[:])
	}
	b = append(b, `","flags":257,"name":"`...)
	kv := func(b []byte, k, v string) []byte {
		return append(append(append(append(b, `{"key":"`...), k...), `","value":{"stringValue":`...), strconv.Quote(v)...)
	}
	switch s.kind {
	case 'r', 'w':
		b = append(b, "invoke_agent "+s.name...)
	default:
		b = append(b, s.name...)
	}
	b = append(b, `","kind":1,"startTimeUnixNano":"`...)
	b = strconv.AppendInt(b, base+s.start, 10)
	b = append(b, `","endTimeUnixNano":"`...)
	b = strconv.AppendInt(b, base+s.end, 10)
	b = append(b, `","attributes":[`...)
	switch s.kind {
	case 'r', 'w':
		b = append(kv(b, "gen_ai.operation.name", "invoke_agent"), "}},"...)
		b = append(kv(b, "gen_ai.agent.name", s.name), "}},"...)
		b = append(kv(b, "gen_ai.agent.id", s.name+"-"+strconv.FormatUint(g.traces, 10)), "}}"...)
	case 'c':
		b = append(kv(b, "gen_ai.operation.name", "chat"), "}},"...)
		b = append(kv(b, "gen_ai.provider.name", "openai"), "}},"...)
		b = append(kv(b, "gen_ai.request.model", "gpt-4o-mini"), "}},"...)
		b = append(b, `{"key":"gen_ai.usage.input_tokens","value":{"intValue":"`...)
		b = strconv.AppendInt(b, int64(200+g.rng.IntN(3000)), 10)
		b = append(b, `"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"`...)
		b = strconv.AppendInt(b, int64(20+g.rng.IntN(500)), 10)
		b = append(b, `"}},`...)
		b = append(kv(b, "gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+prompt+`"}]}]`), "}}"...)
	case 't':
		name := strings.TrimPrefix(s.name, "execute_tool ")
		b = append(kv(b, "gen_ai.operation.name", "execute_tool"), "}},"...)
		b = append(kv(b, "gen_ai.tool.name", name), "}},"...)
		b = append(kv(b, "gen_ai.tool.call.arguments", `{"query":"`+prompt[:80]+`"}`), "}}"...)
	}
	return append(b, `],"status":{}}`...)
}
