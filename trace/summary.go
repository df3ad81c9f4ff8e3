package trace

import (
	"math"
	"slices"
	"sort"
)

// Summary is the distribution of the Table 14 measures over many traces
// (masrl trace stats on a batch): for each measure its median, 90th
// percentile and maximum, over all traces and by topology.
type Summary struct {
	Traces     int            `json:"traces"`
	Overall    Distribution   `json:"overall"`
	ByTopology []Distribution `json:"by_topology"`
}

// Distribution is the distribution of every measure over a group of traces.
type Distribution struct {
	// Topology names the group: a topology, NoTopology, or "" for all.
	Topology string   `json:"topology,omitempty"`
	Traces   int      `json:"traces"`
	Measures []Spread `json:"measures"`
}

// Spread summarises one measure: over N traces (those for which it is
// defined), its median, 90th percentile and maximum. Percentiles are
// nearest-rank: values that occur in the data, not interpolations.
type Spread struct {
	Name   string  `json:"name"`
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    float64 `json:"max"`
}

// NoTopology is the group of traces that state no topology.
const NoTopology = "(not given)"

// measure is one summarised measure: its name, the JSON path of the Report
// member it reads (see IsMeasure), and how to read it; ok is false when
// the trace does not define it.
type measure struct {
	name string
	get  func(r *Report) (v float64, ok bool)
}

func always(f func(r *Report) float64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) { return f(r), true }
}

func optional(f func(r *Report) *float64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) {
		if p := f(r); p != nil {
			return *p, true
		}
		return 0, false
	}
}

// summaryMeasures are the numeric measures of Table 14 and the graph, in
// the order trace stats prints a single trace's.
func summaryMeasures() []measure {
	return []measure{
		{"spawns", always(func(r *Report) float64 { return float64(r.Spawns) })},
		{"despawns", always(func(r *Report) float64 { return float64(r.Despawns) })},
		{"sub_agents", always(func(r *Report) float64 { return float64(r.SubAgents) })},
		{"events", always(func(r *Report) float64 { return float64(r.Events) })},
		{"edges", always(func(r *Report) float64 { return float64(r.Edges) })},
		{"messages", always(func(r *Report) float64 { return float64(r.Messages) })},
		{"tool_calls", always(func(r *Report) float64 { return float64(r.ToolCalls) })},
		{"agents", always(func(r *Report) float64 { return float64(r.Agents) })},
		{"costs.wall_clock_s", always(func(r *Report) float64 { return r.Costs.WallClockS })},
		{"costs.tokens", always(func(r *Report) float64 { return r.Costs.Tokens })},
		{"safety.untrusted_tool_results", always(func(r *Report) float64 { return float64(r.Safety.UntrustedToolResults) })},
		{"safety.untrusted_messages", always(func(r *Report) float64 { return float64(r.Safety.UntrustedMessages) })},
		{"safety.safety_events", always(func(r *Report) float64 { return float64(r.Safety.SafetyEvents) })},
		{"safety.human_interventions", always(func(r *Report) float64 { return float64(r.Safety.HumanInterventions) })},
		{"safety.safety_flow_edges", always(func(r *Report) float64 { return float64(r.Safety.SafetyFlowEdges) })},
		{"graph.critical_path", always(func(r *Report) float64 { return float64(r.Graph.CriticalPath) })},
		{"graph.max_width", always(func(r *Report) float64 { return float64(r.Graph.MaxWidth) })},
		{"graph.spawn_depth", always(func(r *Report) float64 { return float64(r.Graph.SpawnDepth) })},
		{"graph.structural_parallelism", always(func(r *Report) float64 { return r.Graph.StructuralParallelism })},
		{"derived.useful_agent_utilization", optional(func(r *Report) *float64 { return r.Derived.UsefulAgentUtilization })},
		{"derived.exact_duplicate_messages", optional(func(r *Report) *float64 { return r.Derived.ExactDuplicateMessages })},
		{"derived.untrusted_reach", optional(func(r *Report) *float64 { return r.Derived.UntrustedReach })},
	}
}

// Summarizer collects reports, one at a time, into a Summary. It keeps one
// number per measure and trace, not the reports.
type Summarizer struct {
	measures []measure
	all      *group
	byTopo   map[string]*group
}

type group struct {
	traces int
	values [][]float64 // per measure
}

// NewSummarizer returns an empty Summarizer.
func NewSummarizer() *Summarizer {
	return &Summarizer{measures: summaryMeasures(), byTopo: map[string]*group{}}
}

func (s *Summarizer) newGroup() *group { return &group{values: make([][]float64, len(s.measures))} }

// Add adds one trace's report.
func (s *Summarizer) Add(r *Report) {
	if s.all == nil {
		s.all = s.newGroup()
	}
	topo := r.Topology
	if topo == "" {
		topo = NoTopology
	}
	g := s.byTopo[topo]
	if g == nil {
		g = s.newGroup()
		s.byTopo[topo] = g
	}
	for _, grp := range []*group{s.all, g} {
		grp.traces++
		for i, m := range s.measures {
			if v, ok := m.get(r); ok {
				grp.values[i] = append(grp.values[i], v)
			}
		}
	}
}

// Summary returns the distributions; topologies are in the schema's order,
// then NoTopology.
func (s *Summarizer) Summary() Summary {
	out := Summary{ByTopology: []Distribution{}}
	if s.all == nil {
		s.all = s.newGroup()
	}
	out.Traces = s.all.traces
	out.Overall = s.distribution("", s.all)
	topos := append(Topologies(), NoTopology)
	names := make([]string, 0, len(s.byTopo))
	for t := range s.byTopo {
		names = append(names, t)
	}
	sort.Slice(names, func(i, j int) bool {
		return slices.Index(topos, names[i]) < slices.Index(topos, names[j])
	})
	for _, t := range names {
		out.ByTopology = append(out.ByTopology, s.distribution(t, s.byTopo[t]))
	}
	return out
}

func (s *Summarizer) distribution(topo string, g *group) Distribution {
	d := Distribution{Topology: topo, Traces: g.traces, Measures: []Spread{}}
	for i, m := range s.measures {
		vs := slices.Clone(g.values[i])
		slices.Sort(vs)
		q := Spread{Name: m.name, N: len(vs)}
		if len(vs) > 0 {
			q.Median, q.P90, q.Max = nearestRank(vs, 50), nearestRank(vs, 90), vs[len(vs)-1]
		}
		d.Measures = append(d.Measures, q)
	}
	return d
}

// nearestRank returns the p-th percentile of sorted vs by the nearest-rank
// method: the smallest value with at least p% of the values at or below it.
func nearestRank(vs []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(vs))))
	return vs[max(k, 1)-1]
}
