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
	format := fs.String("format", "json", "`format` of the output: json (OTLP/JSON, a request per line) or proto (the collector's protobuf records: a 4-byte big-endian length, then an ExportTraceServiceRequest)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *spans < 1 || *perTrace < 2 || *batch < 1 || *concurrent < 1 || *format != "json" && *format != "proto" {
		fmt.Fprintln(stderr, "usage: synth otlp [-spans N] [-trace-spans N] [-batch N] [-concurrent N] [-seed S] [-format json|proto]")
		return 2
	}
	w := bufio.NewWriterSize(stdout, 1<<20)
	g := otlpGen{rng: rand.New(rand.NewPCG(*seed, 0x6f746c70)), seed: *seed}
	var out otlpSink = &jsonSink{w: w}
	if *format == "proto" {
		out = &protoSink{w: w}
	}
	if err := g.write(out, *spans, *perTrace, *batch, *concurrent); err != nil {
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

// otlpSink writes spans in one of the two formats: add appends a span to
// the current batch, flush writes the batch (nothing if it is empty).
type otlpSink interface {
	add(tr *genTrace, s genSpan, attrs []genAttr, base int64)
	flush() error
}

func (g *otlpGen) write(out otlpSink, total, perTrace, batch, concurrent int) error {
	const base = int64(1767323045000000000) // 2026-01-02T03:04:05Z
	var running []*genTrace
	planned, written := 0, 0
	inBatch := 0
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
		out.add(tr, s, g.attrs(s), base)
		inBatch++
		written++
		if inBatch == batch {
			if err := out.flush(); err != nil {
				return err
			}
			inBatch = 0
		}
	}
	return out.flush()
}

// prompt is prompt-sized text, so that lines weigh what real ones do.
const prompt = "Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. " +
	"Summarise the findings of the previous step and decide what to do next. "

// genAttr is one attribute of a synthetic span, a string or an integer.
type genAttr struct {
	key   string
	s     string
	i     int64
	isInt bool
}

// attrs returns span s's GenAI attributes, drawing its token counts.
func (g *otlpGen) attrs(s genSpan) []genAttr {
	str := func(k, v string) genAttr { return genAttr{key: k, s: v} }
	switch s.kind {
	case 'r', 'w':
		return []genAttr{str("gen_ai.operation.name", "invoke_agent"), str("gen_ai.agent.name", s.name),
			str("gen_ai.agent.id", s.name+"-"+strconv.FormatUint(g.traces, 10))}
	case 'c':
		in := genAttr{key: "gen_ai.usage.input_tokens", i: int64(200 + g.rng.IntN(3000)), isInt: true}
		out := genAttr{key: "gen_ai.usage.output_tokens", i: int64(20 + g.rng.IntN(500)), isInt: true}
		return []genAttr{str("gen_ai.operation.name", "chat"), str("gen_ai.provider.name", "openai"),
			str("gen_ai.request.model", "gpt-4o-mini"), in, out,
			str("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+prompt+`"}]}]`)}
	}
	return []genAttr{str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", strings.TrimPrefix(s.name, "execute_tool ")),
		str("gen_ai.tool.call.arguments", `{"query":"`+prompt[:80]+`"}`)}
}

// spanName is the span's name as its instrumentation would give it.
func spanName(s genSpan) string {
	if s.kind == 'r' || s.kind == 'w' {
		return "invoke_agent " + s.name
	}
	return s.name
}

// jsonSink writes OTLP/JSON, one ExportTraceServiceRequest per line.
type jsonSink struct {
	w    *bufio.Writer
	line []byte
}

func (j *jsonSink) add(tr *genTrace, s genSpan, attrs []genAttr, base int64) {
	b := j.line
	if len(b) == 0 {
		b = append(b, `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"synth-agents"}}]},"scopeSpans":[{"scope":{"name":"synth"},"spans":[`...)
	} else {
		b = append(b, ',')
	}
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
	b = append(b, spanName(s)...)
	b = append(b, `","kind":1,"startTimeUnixNano":"`...)
	b = strconv.AppendInt(b, base+s.start, 10)
	b = append(b, `","endTimeUnixNano":"`...)
	b = strconv.AppendInt(b, base+s.end, 10)
	b = append(b, `","attributes":[`...)
	for k, a := range attrs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, `{"key":"`...), a.key...), `","value":{`...)
		if a.isInt {
			b = strconv.AppendInt(append(b, `"intValue":"`...), a.i, 10)
			b = append(b, `"}}`...)
		} else {
			b = append(append(b, `"stringValue":`...), strconv.Quote(a.s)...)
			b = append(b, "}}"...)
		}
	}
	j.line = append(b, `],"status":{}}`...)
}

func (j *jsonSink) flush() error {
	if len(j.line) == 0 {
		return nil
	}
	_, err := j.w.Write(append(j.line, "]}]}]}\n"...))
	j.line = j.line[:0]
	return err
}
