// Package synth generates synthetic, deterministic inputs for tests and
// benchmarks: orchestration traces of any size whose mix of events and
// edges resembles a hierarchical multi-agent run.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// TraceOptions configure WriteTrace.
type TraceOptions struct {
	Events int    // number of events, at least 1
	Seed   uint64 // same seed and size, same bytes
	// Topology is the trace's topology field; "" is hierarchical.
	Topology string
}

// worker is a spawned sub-agent of the synthetic run.
type worker struct {
	name, role string
	last       int    // index of its latest event
	tool       string // tool of a pending tool_call, "" if none
	spawned    int    // sub-workers it spawned
}

// traceGen is the state of one generated run. Events are written as they
// are made; edges are kept (9 bytes each) and written after the events.
type traceGen struct {
	w        *bufio.Writer
	rng      *rand.Rand
	n        int // events written
	t        float64
	orchLast int
	active   []*worker
	returns  []int // return events not yet aggregated
	toSpawn  []*worker
	despawn  []string
	lastRefs []string
	nextID   int
	src, dst []int32
	typ      []uint8
	err      error
}

// WriteTrace writes a valid trace of opts.Events events to w: an
// orchestrator spawning waves of planners, executors and critics that
// message each other, call tools (some results untrusted, a few raising
// safety events), return and get aggregated, with occasional human
// interventions, nested spawns and despawns. Every event has one incoming
// edge or more, times increase, and the graph is acyclic, so the trace is
// valid; its size is about 195 bytes per event.
func WriteTrace(w io.Writer, opts TraceOptions) error {
	if opts.Events < 1 {
		return fmt.Errorf("synth: a trace needs at least 1 event, got %d", opts.Events)
	}
	g := &traceGen{w: bufio.NewWriterSize(w, 1<<16), rng: rand.New(rand.NewPCG(opts.Seed, 0x6d6173726c))}
	topology := opts.Topology
	if topology == "" {
		topology = "hierarchical"
	}
	fmt.Fprintf(g.w, "{\n  \"trace_id\": \"synth-%d-%d\",\n  \"task_id\": \"synthetic-task-%d\",\n  \"system\": \"masrl-synth\",\n  \"topology\": %q,\n  \"events\": [\n", opts.Seed, opts.Events, opts.Seed, topology)
	g.event(-1, 0, "orchestrator_decision", "orchestrator", "lead", "", "", "", true, -1)
	g.orchLast = 0
	for g.n < opts.Events-1 {
		g.step()
	}
	if opts.Events > 1 {
		g.final()
	}
	g.w.WriteString("\n  ],\n  \"edges\": [\n")
	types := [...]string{"temporal", "causal", "spawn", "message", "tool_dependency", "return", "aggregate", "safety_flow"}
	for k := range g.src {
		if k > 0 {
			g.w.WriteString(",\n")
		}
		fmt.Fprintf(g.w, `    {"src":"e%d","dst":"e%d","type":"%s"}`, g.src[k]+1, g.dst[k]+1, types[g.typ[k]])
	}
	fmt.Fprintf(g.w, "\n  ],\n  \"rewards\": {\"team\": %.2f, \"process\": %.2f, \"orchestration\": %.2f, \"tool\": %.2f},\n",
		g.rng.Float64(), g.rng.Float64(), g.rng.Float64()*0.5, g.rng.Float64()*0.2)
	fmt.Fprintf(g.w, "  \"costs\": {\"tokens\": %d, \"wall_clock_s\": %.3f},\n", opts.Events*180+g.rng.IntN(1000), g.t)
	fmt.Fprintf(g.w, "  \"metrics\": {\"task_success\": %d}\n}\n", g.rng.IntN(2))
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

// Edge type codes, in the schema's order.
const (
	edTemporal = iota
	edCausal
	edSpawn
	edMessage
	edToolDependency
	edReturn
	edAggregate
	edSafetyFlow
)

// event writes one event with an edge of type et from event from (-1: no
// edge) and returns its index. trusted is written when trust >= 0.
func (g *traceGen) event(from int, et uint8, typ, agent, role, to, tool, ref string, trusted bool, trust int) int {
	i := g.n
	if i > 0 {
		g.w.WriteString(",\n")
		g.t += 0.05 + g.rng.Float64()*0.2
	}
	b := make([]byte, 0, 256)
	b = append(b, `    {"id":"e`...)
	b = strconv.AppendInt(b, int64(i+1), 10)
	b = append(b, `","t":`...)
	b = strconv.AppendFloat(b, g.t, 'f', 3, 64)
	b = append(b, `,"type":"`...)
	b = append(b, typ...)
	b = append(b, `","agent":"`...)
	b = append(b, agent...)
	b = append(b, '"')
	if role != "" {
		b = append(b, `,"role":"`...)
		b = append(b, role...)
		b = append(b, '"')
	}
	if typ == "return" {
		b = append(b, `,"from":"`...)
		b = append(b, agent...)
		b = append(b, '"')
	}
	if to != "" {
		b = append(b, `,"to":"`...)
		b = append(b, to...)
		b = append(b, '"')
	}
	if tool != "" {
		b = append(b, `,"tool":"`...)
		b = append(b, tool...)
		b = append(b, '"')
	}
	if ref != "" {
		b = append(b, `,"content_ref":"`...)
		b = append(b, ref...)
		b = append(b, '"')
	}
	if trust >= 0 {
		b = append(b, `,"trusted":`...)
		b = strconv.AppendBool(b, trusted)
	}
	b = append(b, '}')
	if _, err := g.w.Write(b); err != nil && g.err == nil {
		g.err = err
	}
	if from >= 0 {
		g.edge(from, i, et)
	}
	g.n++
	return i
}

func (g *traceGen) edge(from, to int, et uint8) {
	g.src = append(g.src, int32(from))
	g.dst = append(g.dst, int32(to))
	g.typ = append(g.typ, et)
}

// ref returns a content hash; one message in twenty repeats an earlier one.
func (g *traceGen) ref(reuse bool) string {
	if reuse && len(g.lastRefs) > 0 && g.rng.IntN(20) == 0 {
		return g.lastRefs[g.rng.IntN(len(g.lastRefs))]
	}
	r := fmt.Sprintf("%016x", g.rng.Uint64())
	if len(g.lastRefs) < 64 {
		g.lastRefs = append(g.lastRefs, r)
	} else {
		g.lastRefs[g.rng.IntN(64)] = r
	}
	return r
}

// step writes exactly one event.
func (g *traceGen) step() {
	roles := [...]string{"planner", "executor", "executor", "critic"}
	switch {
	case len(g.toSpawn) > 0:
		w := g.toSpawn[0]
		g.toSpawn = g.toSpawn[1:]
		w.last = g.event(g.orchLast, edSpawn, "spawn", "orchestrator", "lead", w.name, "", "", true, -1)
		g.active = append(g.active, w)
	case len(g.despawn) > 0:
		name := g.despawn[0]
		g.despawn = g.despawn[1:]
		g.orchLast = g.event(g.orchLast, edTemporal, "despawn", "orchestrator", "lead", name, "", "", true, -1)
	case len(g.returns) >= 3 || len(g.active) == 0 && len(g.returns) > 0:
		i := g.event(g.returns[0], edAggregate, "aggregate", "orchestrator", "lead", "", "", g.ref(false), true, -1)
		for _, r := range g.returns[1:] {
			g.edge(r, i, edAggregate)
		}
		g.edge(g.orchLast, i, edTemporal)
		g.returns = g.returns[:0]
		g.orchLast = i
	case len(g.active) == 0 || len(g.active) < 6 && g.rng.IntN(40) == 0:
		g.orchLast = g.event(g.orchLast, edCausal, "orchestrator_decision", "orchestrator", "lead", "", "", g.ref(false), true, -1)
		for k := 1 + g.rng.IntN(3); k > 0; k-- {
			role := roles[g.rng.IntN(len(roles))]
			g.toSpawn = append(g.toSpawn, &worker{name: fmt.Sprintf("%s_%d", role, g.nextID), role: role})
			g.nextID++
		}
	default:
		g.work(g.rng.IntN(len(g.active)))
	}
}

// work writes the next event of active worker k.
func (g *traceGen) work(k int) {
	w := g.active[k]
	if w.tool != "" {
		trusted := g.rng.IntN(5) != 0
		w.last = g.event(w.last, edToolDependency, "tool_result", w.tool, "", "", w.tool, g.ref(false), trusted, 1)
		w.tool = ""
		if !trusted && g.rng.IntN(8) == 0 {
			g.event(w.last, edSafetyFlow, "safety_event", "guard", "monitor", "", "", g.ref(false), true, -1)
		}
		return
	}
	tools := [...]string{"browser.search", "python.exec", "file.read", "sql.query", "shell.run"}
	switch r := g.rng.IntN(100); {
	case r < 38:
		to := "orchestrator"
		if len(g.active) > 1 {
			to = g.active[(k+1+g.rng.IntN(len(g.active)-1))%len(g.active)].name
		}
		w.last = g.event(w.last, edMessage, "message", w.name, w.role, to, "", g.ref(true), g.rng.IntN(50) != 0, 1)
	case r < 78:
		w.tool = tools[g.rng.IntN(len(tools))]
		w.last = g.event(w.last, edCausal, "tool_call", w.name, w.role, "", w.tool, g.ref(false), true, -1)
	case r < 80 && w.spawned < 2:
		name := fmt.Sprintf("%s_%d", "executor", g.nextID)
		g.nextID++
		w.spawned++
		w.last = g.event(w.last, edSpawn, "spawn", w.name, w.role, name, "", "", true, -1)
		g.active = append(g.active, &worker{name: name, role: "executor", last: w.last})
	case r < 81:
		w.last = g.event(w.last, edCausal, "human_intervention", "human", "overseer", w.name, "", g.ref(false), true, -1)
	default:
		i := g.event(w.last, edReturn, "return", w.name, w.role, "orchestrator", "", g.ref(false), true, 1)
		g.returns = append(g.returns, i)
		g.active[k] = g.active[len(g.active)-1]
		g.active = g.active[:len(g.active)-1]
		if g.rng.IntN(2) == 0 {
			g.despawn = append(g.despawn, w.name)
		}
	}
}

// final writes the closing aggregate, fed by every open thread.
func (g *traceGen) final() {
	i := g.event(g.orchLast, edTemporal, "aggregate", "orchestrator", "lead", "", "", g.ref(false), true, -1)
	for _, r := range g.returns {
		g.edge(r, i, edAggregate)
	}
	for _, w := range g.active {
		g.edge(w.last, i, edAggregate)
	}
}
