package trace

import (
	"fmt"
	"math"
	"strings"
)

// inlineSideScan is the size (events plus edges) below which finish does
// the order-independent scan itself instead of on a second goroutine.
const inlineSideScan = 1 << 14

// finish resolves pending edge ends and, if the whole document was read,
// runs the graph checks and measures, in steps: resolve the last edge
// ends, scan edges and nodes for what does not depend on the order (on a
// second goroutine for a large trace), build the adjacency, order the
// graph, report edges back in time, measure the layering, and propagate
// trust and usefulness along the order for Table 13's measures.
func (g *graph) finish(c *checker, complete bool) {
	g.report = c.addAt
	r := c.rep
	if !g.findingsOnly {
		r.finishCounts(g)
	}
	if !complete {
		return
	}
	g.resolvePending()
	n, m := g.ids.n, g.src.n

	side := g.startSideScan(n, m)
	var off, adj, indeg, order, level []int32
	if !g.findingsOnly {
		off, adj, indeg = g.adjacency(n, m)
		order, level = topoOrder(n, off, adj, indeg)
	}
	backward, flags, forward := side()
	g.reportBackward(c, backward)
	if g.findingsOnly {
		// Without measures the order is needed only to find a cycle, and
		// when every edge goes forward in time there is none: around a
		// cycle, t would have to grow back to where it started.
		if forward {
			return
		}
		off, adj, indeg = g.adjacency(n, m)
		order, _ = topoOrder(n, off, adj, indeg)
	}

	if len(order) < n {
		r.Graph.Cyclic = true
		r.Graph.EventsOnOrAfterCycles = n - len(order)
		g.reportCycle(c, indeg)
	}
	if g.findingsOnly {
		return
	}
	measureLayers(&r.Graph, order, level)
	g.propagateFlags(order, off, adj, flags)
	g.measureDerived(&r.Derived, order, flags)
}

// resolvePending looks up the edge ends that named an id before its event
// was read; those still unknown dangle.
func (g *graph) resolvePending() {
	for _, p := range g.pending {
		id := []byte(p.id)
		i := g.ids.lookup(id, g.ids.hash(id))
		if i < 0 {
			g.dangling(int(p.edge), p.dst, p.id, p.at)
			i = -2
		}
		if p.dst {
			g.dst.set(int(p.edge), i)
		} else {
			g.src.set(int(p.edge), i)
		}
	}
	g.pending = nil
	g.ids.spare, g.ids.slots = g.ids.slots, nil // every id is resolved; the hash table can go
}

// startSideScan finds the edges back in time and each node's own flags,
// which do not depend on the order of the graph. On a large trace a second
// goroutine does it while the caller orders the graph (on a million events,
// a third of finish's time); the warnings are reported afterwards in edge
// order, as if found in sequence. Both goroutines only read the columns.
// The returned function waits for the scan and returns its results;
// forward reports whether every edge between two events goes strictly
// forward in time. Without measures (findingsOnly) the caller has nothing
// to do meanwhile, so the scan runs on its goroutine.
func (g *graph) startSideScan(n, m int) func() (backward []int32, flags []uint8, forward bool) {
	var backward []int32
	var flags []uint8
	forward := true
	scan := func() {
		for k := range m {
			s, d := g.src.at(k), g.dst.at(k)
			if s < 0 || d < 0 {
				continue
			}
			ts, td := g.t.at(int(s)), g.t.at(int(d))
			if td < ts {
				backward = append(backward, int32(k))
			}
			forward = forward && ts < td
		}
		if g.findingsOnly {
			return
		}
		flags = make([]uint8, n)
		for i := range n {
			if g.trusted.at(i) == 0 {
				flags[i] |= flagUntrusted
			}
			if a := g.agent.at(i); a >= 0 && g.parent[a] >= 0 {
				flags[i] |= flagSubAgent
			}
		}
	}
	if n+m < inlineSideScan || g.findingsOnly {
		scan()
		return func() ([]int32, []uint8, bool) { return backward, flags, forward }
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		scan()
	}()
	return func() ([]int32, []uint8, bool) {
		<-done
		return backward, flags, forward
	}
}

// adjacency returns the graph's out-edges in compressed form (node v's
// successors are adj[off[v]:off[v+1]]) and each node's in-degree.
func (g *graph) adjacency(n, m int) (off, adj, indeg []int32) {
	off = make([]int32, n+1)
	indeg = make([]int32, n)
	for k := range m {
		s, d := g.src.at(k), g.dst.at(k)
		if s < 0 || d < 0 {
			continue
		}
		off[s+1]++
		indeg[d]++
	}
	// off[v+1] holds v's out-degree; prefix sums make off[v+1] the end of
	// v's run in adj, and placing edges backwards leaves off[v+1] at the
	// start of v+1's run, without a second array.
	for i := range n {
		off[i+1] += off[i]
	}
	adj = make([]int32, off[n])
	for k := m - 1; k >= 0; k-- {
		s, d := g.src.at(k), g.dst.at(k)
		if s < 0 || d < 0 {
			continue
		}
		off[s+1]--
		adj[off[s+1]] = d
	}
	// Now off[v+1] is the start of v's run: shift down by one.
	copy(off, off[1:])
	off[n] = int32(len(adj))
	return off, adj, indeg
}

// topoOrder runs Kahn's algorithm: a topological order of the nodes not on
// or after a cycle, and the longest path ending at each node (its level).
// indeg is consumed: what remains positive marks the nodes left out.
func topoOrder(n int, off, adj, indeg []int32) (order, level []int32) {
	order = make([]int32, 0, n)
	level = make([]int32, n)
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, int32(i))
			level[i] = 1
		}
	}
	for h := 0; h < len(order); h++ {
		v := order[h]
		for _, w := range adj[off[v]:off[v+1]] {
			level[w] = max(level[w], level[v]+1)
			indeg[w]--
			if indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	return order, level
}

// reportBackward warns of each edge whose dst happens before its src.
func (g *graph) reportBackward(c *checker, backward []int32) {
	for _, k := range backward {
		s, d := g.src.at(int(k)), g.dst.at(int(k))
		ts, td := g.t.at(int(s)), g.t.at(int(d))
		c.addAt(g.edgePos(int(k)), fmt.Sprintf("/edges/%d", k), Warning, RuleEdgeTime,
			fmt.Sprintf("edge runs backwards in time: dst %q (t=%g) is earlier than src %q (t=%g)", g.ids.bytesOf(int(d)), td, g.ids.bytesOf(int(s)), ts))
	}
}

// measureLayers sets the critical path, the widest layer and the
// structural parallelism from the ordered nodes' levels.
func measureLayers(gr *Graph, order, level []int32) {
	var width []int32
	for _, v := range order {
		l := level[v]
		gr.CriticalPath = max(gr.CriticalPath, int(l))
		for int(l) > len(width) {
			width = append(width, 0)
		}
		width[l-1]++
	}
	for _, w := range width {
		gr.MaxWidth = max(gr.MaxWidth, int(w))
	}
	if gr.CriticalPath > 0 {
		gr.StructuralParallelism = round3(float64(len(order)) / float64(gr.CriticalPath))
	}
}

// propagateFlags marks what untrusted sources reach (forward, in order)
// and what reaches an aggregate event (backward, in reverse order).
func (g *graph) propagateFlags(order, off, adj []int32, flags []uint8) {
	for _, v := range order {
		if flags[v]&(flagUntrusted|flagTainted) != 0 {
			for _, w := range adj[off[v]:off[v+1]] {
				flags[w] |= flagTainted
			}
		}
	}
	for h := len(order) - 1; h >= 0; h-- {
		v := order[h]
		if g.typ.at(int(v)) == EvAggregate {
			flags[v] |= flagReachesAgg
			continue
		}
		for _, w := range adj[off[v]:off[v+1]] {
			if flags[w]&flagReachesAgg != 0 {
				flags[v] |= flagReachesAgg
				break
			}
		}
	}
}

// measureDerived computes Table 13's trace-determined measures from the
// flags of the ordered nodes.
func (g *graph) measureDerived(d *Derived, order []int32, flags []uint8) {
	var sources, tainted, sub, useful int
	for _, v := range order {
		f := flags[v]
		if f&flagUntrusted != 0 {
			sources++
		}
		if f&flagTainted != 0 {
			tainted++
		}
		if f&flagSubAgent != 0 {
			sub++
			if f&flagReachesAgg != 0 {
				useful++
			}
		}
	}
	if sources > 0 {
		d.UntrustedReach = new(round3(float64(tainted) / float64(sources)))
	}
	if sub > 0 {
		d.UsefulAgentUtilization = new(round3(float64(useful) / float64(sub)))
	}
	if g.refMsgs > 0 {
		d.ExactDuplicateMessages = new(round3(float64(g.dupMsgs) / float64(g.refMsgs)))
	}
}

func (g *graph) edgePos(k int) pos {
	return g.eat.at(k).pos()
}

// reportCycle finds one cycle among the nodes Kahn's algorithm could not
// order (indeg > 0) and reports it at its lowest-numbered edge. Each such
// node has a predecessor that is also unordered, so walking predecessors
// must come back to a node already seen.
func (g *graph) reportCycle(c *checker, indeg []int32) {
	pred := make(map[int32]int32) // node -> edge index into it
	for k := 0; k < g.src.n; k++ {
		s, d := g.src.at(k), g.dst.at(k)
		if s < 0 || d < 0 || indeg[s] == 0 || indeg[d] == 0 {
			continue
		}
		if _, ok := pred[d]; !ok {
			pred[d] = int32(k)
		}
	}
	var start int32 = -1
	for i, d := range indeg {
		if d > 0 {
			start = int32(i)
			break
		}
	}
	seen := make(map[int32]int)
	var walk []int32 // edges, walking backwards
	v := start
	for {
		if at, ok := seen[v]; ok {
			walk = walk[at:]
			break
		}
		seen[v] = len(walk)
		k := pred[v]
		walk = append(walk, k)
		v = g.src.at(int(k))
	}
	// walk holds the cycle's edges in reverse; print it forwards from the
	// lowest-numbered edge.
	low := 0
	for i, k := range walk {
		if k < walk[low] {
			low = i
		}
	}
	var names []string
	for i := 0; i <= len(walk); i++ {
		k := walk[(low-i+len(walk))%len(walk)]
		if i == 0 {
			names = append(names, fmt.Sprintf("%q", g.ids.bytesOf(int(g.src.at(int(k))))))
		}
		if i < len(walk) {
			names = append(names, fmt.Sprintf("%q", g.ids.bytesOf(int(g.dst.at(int(k))))))
		}
		if len(names) > 12 {
			names = append(names, "...")
			break
		}
	}
	k := int(walk[low])
	c.addAt(g.edgePos(k), fmt.Sprintf("/edges/%d", k), Warning, RuleCycle,
		fmt.Sprintf("the event graph has a cycle: %s", strings.Join(names[:min(len(names), 13)], " -> ")))
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
