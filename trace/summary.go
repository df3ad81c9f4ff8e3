package trace

// Summary is the distribution of the Table 14 measures over many traces
// (masrl trace stats on a batch, masrl trace merge): for each measure its
// median, 90th percentile and maximum, over all traces and by topology.
// It is computed from a partial (package trace/partial).
type Summary struct {
	Traces     int            `json:"traces"`
	Overall    Distribution   `json:"overall"`
	ByTopology []Distribution `json:"by_topology"`
	// RelativeAccuracy is the bound of every approximate percentile: see
	// Spread.Approximate.
	RelativeAccuracy float64 `json:"relative_accuracy"`
}

// Distribution is the distribution of every measure over a group of traces.
type Distribution struct {
	// Topology names the group: a topology, NoTopology, or "" for all.
	Topology string   `json:"topology,omitempty"`
	Traces   int      `json:"traces"`
	Measures []Spread `json:"measures"`
}

// Spread summarises one measure: over N traces (those for which it is
// defined), its minimum, median, 90th percentile, maximum and sum.
// Percentiles are nearest-rank: values that occur in the data, not
// interpolations. N, Min, Max and Sum are exact (Sum is the exact sum
// rounded once to a float64). The percentiles are exact too unless
// Approximate is set: the measure had more than partial.ExactValues
// distinct values, and each percentile q̂ was read from a DDSketch, within the
// Summary's RelativeAccuracy α of the nearest-rank percentile q:
// |q̂ − q| ≤ α·|q|.
type Spread struct {
	Name        string  `json:"name"`
	N           int     `json:"n"`
	Min         float64 `json:"min"`
	Median      float64 `json:"median"`
	P90         float64 `json:"p90"`
	Max         float64 `json:"max"`
	Sum         float64 `json:"sum"`
	Approximate bool    `json:"approximate,omitempty"`
}

// NoTopology is the group of traces that state no topology.
const NoTopology = "(not given)"

// SummaryMeasure is one summarised measure: its Name, the JSON path of the
// Report member it reads (see IsMeasure), and Value, which reads it; ok is
// false when the trace does not define it.
type SummaryMeasure struct {
	Name  string
	Value func(r *Report) (v float64, ok bool)
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

// SummaryMeasures are the numeric measures of Table 14 and the graph, in
// the order trace stats prints a single trace's: the measures a Summary
// and a partial (package trace/partial) hold.
func SummaryMeasures() []SummaryMeasure {
	return []SummaryMeasure{
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
