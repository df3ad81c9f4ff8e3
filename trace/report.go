package trace

import (
	"math"
	"sort"
)

// Report is the survey's reporting checklist (Table 14) and the graph
// measures of Table 13 that a trace alone determines, computed from one
// trace. Every field is defined in trace/README.md. Lists are sorted, so a
// Report marshals to the same JSON every time.
type Report struct {
	TraceID  string `json:"trace_id"`
	TaskID   string `json:"task_id"`
	System   string `json:"system,omitempty"`
	Topology string `json:"topology,omitempty"`

	// Topology and roles.
	Roles     []Count `json:"roles"`
	Spawns    int     `json:"spawns"`
	Despawns  int     `json:"despawns"`
	TeamSize  string  `json:"team_size"` // "fixed" or "dynamic"
	SubAgents int     `json:"sub_agents"`

	// Trace scale.
	Events     int     `json:"events"`
	EventTypes []Count `json:"event_types"`
	Edges      int     `json:"edges"`
	EdgeTypes  []Count `json:"edge_types"`
	Messages   int     `json:"messages"`
	ToolCalls  int     `json:"tool_calls"`
	Agents     int     `json:"agents"`
	Costs      Costs   `json:"costs"`

	// Reward channels and optional metrics, by name.
	Rewards []Channel `json:"rewards"`
	Metrics []Channel `json:"metrics"`

	Safety  Safety  `json:"safety"`
	Graph   Graph   `json:"graph"`
	Derived Derived `json:"derived"`
}

// Count is a named count.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Channel is a named number: a reward channel, a metric or a cost entry.
type Channel struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Costs are the trace's costs; ToolCalls and Messages are nil when the trace
// does not state them, and Other holds any further numeric entries.
type Costs struct {
	Tokens     float64   `json:"tokens"`
	WallClockS float64   `json:"wall_clock_s"`
	ToolCalls  *float64  `json:"tool_calls"`
	Messages   *float64  `json:"messages"`
	Other      []Channel `json:"other"`
}

func (c *Costs) set(name string, v float64) {
	switch name {
	case "tokens":
		c.Tokens = v
	case "wall_clock_s":
		c.WallClockS = v
	case "tool_calls":
		c.ToolCalls = new(v)
	case "messages":
		c.Messages = new(v)
	default:
		c.Other = append(c.Other, Channel{Name: name, Value: v})
	}
}

// Safety is the safety instrumentation of Table 14: whether untrusted
// content, human interventions and safety flows are logged separately.
type Safety struct {
	// TrustLabelledToolResults and TrustLabelledMessages count events of
	// those types that carry a "trusted" field at all.
	TrustLabelledToolResults int `json:"trust_labelled_tool_results"`
	TrustLabelledMessages    int `json:"trust_labelled_messages"`
	UntrustedToolResults     int `json:"untrusted_tool_results"`
	UntrustedMessages        int `json:"untrusted_messages"`
	SafetyEvents             int `json:"safety_events"`
	HumanInterventions       int `json:"human_interventions"`
	SafetyFlowEdges          int `json:"safety_flow_edges"`
}

// Graph holds measures of the event graph (nodes: events with a unique id;
// edges: edges whose ends exist).
type Graph struct {
	// CriticalPath is the number of events on the longest directed path.
	CriticalPath int `json:"critical_path"`
	// MaxWidth is the largest number of events at the same depth of the
	// longest-path layering: events that could run in parallel.
	MaxWidth int `json:"max_width"`
	// SpawnDepth is the height of the spawn tree: 1 when a root agent
	// spawns sub-agents that spawn nobody.
	SpawnDepth int `json:"spawn_depth"`
	// StructuralParallelism is ordered events / CriticalPath: the speed-up
	// an unbounded team could reach over running events one by one.
	StructuralParallelism float64 `json:"structural_parallelism"`
	// Cyclic is true if the graph has a cycle; the measures above then
	// cover only the EventsOnOrAfterCycles-free part.
	Cyclic                bool `json:"cyclic"`
	EventsOnOrAfterCycles int  `json:"events_on_or_after_cycles"`
}

// Derived holds the trace-determined versions of Table 13's metrics; each
// is nil when the trace has nothing to compute it from.
type Derived struct {
	// UsefulAgentUtilization: sub-agent events from which an aggregate
	// event is reachable, divided by all sub-agent events.
	UsefulAgentUtilization *float64 `json:"useful_agent_utilization"`
	// ExactDuplicateMessages: message events whose content_ref repeats an
	// earlier message's, divided by message events with a content_ref (a
	// lower bound of Table 13's semantic message redundancy).
	ExactDuplicateMessages *float64 `json:"exact_duplicate_messages"`
	// UntrustedReach: events reachable from untrusted events (trusted:
	// false), divided by the number of untrusted events (the structural
	// ceiling of Table 13's error amplification ratio).
	UntrustedReach *float64 `json:"untrusted_reach"`
}

func newReport() *Report {
	r := &Report{Roles: []Count{}, Rewards: []Channel{}, Metrics: []Channel{}, Costs: Costs{Other: []Channel{}},
		EventTypes: make([]Count, 0, numEventTypes), EdgeTypes: make([]Count, 0, numEdgeTypes)}
	for _, t := range EventTypes() {
		r.EventTypes = append(r.EventTypes, Count{Name: t})
	}
	for _, t := range EdgeTypes() {
		r.EdgeTypes = append(r.EdgeTypes, Count{Name: t})
	}
	return r
}

// countEvent counts an event of type code typ (-1: invalid).
func (r *Report) countEvent(typ int) {
	r.Events++
	if typ >= 0 {
		r.EventTypes[typ].Count++
	}
}

// countEdge counts an edge of type code typ (-1: invalid).
func (r *Report) countEdge(typ int) {
	r.Edges++
	if typ >= 0 {
		r.EdgeTypes[typ].Count++
	}
}

// finishCounts derives the totals from the per-type counts and the graph's
// tables, and sorts every list.
func (r *Report) finishCounts(g *graph) {
	ev := func(t int) int { return r.EventTypes[t].Count }
	r.Messages = ev(EvMessage)
	r.ToolCalls = ev(EvToolCall)
	r.Spawns = ev(EvSpawn)
	r.Despawns = ev(EvDespawn)
	r.Agents = g.agents.n
	r.SubAgents = g.subAgents
	r.TeamSize = "fixed"
	if !math.IsInf(g.minWorkT, 1) && g.maxSpawnT > g.minWorkT {
		r.TeamSize = "dynamic"
	}
	r.Safety.TrustLabelledToolResults = g.trustLabel[EvToolResult]
	r.Safety.TrustLabelledMessages = g.trustLabel[EvMessage]
	r.Safety.UntrustedToolResults = g.untrustedToolResults
	r.Safety.UntrustedMessages = g.untrustedMessages
	r.Safety.SafetyEvents = ev(EvSafetyEvent)
	r.Safety.HumanInterventions = ev(EvHumanIntervention)
	r.Safety.SafetyFlowEdges = r.EdgeTypes[EdSafetyFlow].Count
	r.Roles = r.Roles[:0]
	for i, n := range g.roleCount {
		r.Roles = append(r.Roles, Count{Name: string(g.roles.bytesOf(i)), Count: n})
	}
	sort.Slice(r.Roles, func(i, j int) bool { return r.Roles[i].Name < r.Roles[j].Name })
	for _, l := range [][]Channel{r.Rewards, r.Metrics, r.Costs.Other} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Name < l[j].Name })
	}
	r.Graph.SpawnDepth = spawnDepth(g.parent)
}

// spawnDepth is the height of the spawn forest; parent[a] is the agent
// that spawned agent a, or -1. A spawn relation with a cycle (a spawns b, b
// spawns a) is cut where the walk meets itself. The walk is iterative: a
// chain of a million spawns must not exhaust the stack. Agents are walked
// in index order, so that the height of a cyclic relation, which depends on
// where the walk starts, is the same on every run.
func spawnDepth(parent []int32) int {
	depth := make([]int32, len(parent))   // 0: not known yet
	onChain := make([]int32, len(parent)) // a+1 while a's walk passes by
	best := 0
	var chain []int32
	for a, p := range parent {
		if p < 0 {
			continue
		}
		chain = chain[:0]
		base := int32(0)
		for v := int32(a); ; {
			if d := depth[v]; d > 0 {
				base = d
				break
			}
			if parent[v] < 0 || onChain[v] == int32(a)+1 {
				break
			}
			onChain[v] = int32(a) + 1
			chain = append(chain, v)
			v = parent[v]
		}
		for i := len(chain) - 1; i >= 0; i-- {
			base++
			depth[chain[i]] = base
		}
		best = max(best, int(base))
	}
	return best
}
