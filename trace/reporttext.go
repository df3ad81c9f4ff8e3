package trace

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/masrl/masrl/internal/diag"
)

// WriteText prints the distribution of each measure over all valid
// traces, then by topology, as trace stats and trace merge print a
// batch's report; invalid counts the traces with errors left out.
func (s Summary) WriteText(w io.Writer, invalid int) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	group := func(title string, d Distribution) {
		fmt.Fprintf(tw, "%s (%s)\n", title, diag.Count(d.Traces, "trace"))
		fmt.Fprintf(tw, "  measure\tn\tmedian\tp90\tmax\n")
		for _, m := range d.Measures {
			if m.N == 0 {
				fmt.Fprintf(tw, "  %s\t0\tn/a\tn/a\tn/a\n", m.Name)
				continue
			}
			pct := num
			if m.Approximate {
				pct = func(x float64) string { return "~" + num(x) }
			}
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\n", m.Name, m.N, pct(m.Median), pct(m.P90), num(m.Max))
		}
	}
	fmt.Fprintf(w, "Traces: %d valid", s.Traces)
	if invalid > 0 {
		fmt.Fprintf(w, ", %d with errors left out", invalid)
	}
	fmt.Fprintf(w, "\nPercentiles are nearest-rank; n counts the traces that define a measure.\n")
	if s.approximate() {
		fmt.Fprintf(w, "~ marks a percentile read from a quantile sketch (DDSketch), within %s of the nearest-rank value.\n",
			strconv.FormatFloat(100*s.RelativeAccuracy, 'g', -1, 64)+"%")
	}
	fmt.Fprintln(w)
	group("All traces", s.Overall)
	for _, d := range s.ByTopology {
		fmt.Fprintf(tw, "\n")
		group("Topology "+d.Topology, d)
	}
	return tw.Flush()
}

// approximate reports whether any percentile of s comes from a sketch.
func (s Summary) approximate() bool {
	for _, d := range append([]Distribution{s.Overall}, s.ByTopology...) {
		for _, m := range d.Measures {
			if m.Approximate {
				return true
			}
		}
	}
	return false
}

// WriteText prints the report in the order of the survey's Table 14, as
// trace stats prints the report of one trace.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, v) }
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return "n/a"
		}
		return num(*x)
	}
	counts := func(cs []Count) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, c.Count))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	channels := func(cs []Channel) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, c.Name+" "+num(c.Value))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(tw, "Trace\n")
	row("trace id", r.TraceID)
	row("task id", r.TaskID)
	row("system", orNone(r.System))
	fmt.Fprintf(tw, "Topology and roles\n")
	row("topology", orNone(r.Topology))
	row("active roles", counts(r.Roles))
	row("spawns / despawns", fmt.Sprintf("%d / %d", r.Spawns, r.Despawns))
	row("team size", fmt.Sprintf("%s (%d spawned sub-agents)", r.TeamSize, r.SubAgents))
	fmt.Fprintf(tw, "Trace scale\n")
	row("events", strconv.Itoa(r.Events))
	row("event types", counts(r.EventTypes))
	row("edges", strconv.Itoa(r.Edges))
	row("edge types", counts(r.EdgeTypes))
	row("messages", strconv.Itoa(r.Messages))
	row("tool calls", strconv.Itoa(r.ToolCalls))
	row("distinct agents", strconv.Itoa(r.Agents))
	row("wall clock (s)", num(r.Costs.WallClockS))
	row("tokens", num(r.Costs.Tokens))
	row("stated tool calls / messages", opt(r.Costs.ToolCalls)+" / "+opt(r.Costs.Messages))
	if len(r.Costs.Other) > 0 {
		row("other costs", channels(r.Costs.Other))
	}
	fmt.Fprintf(tw, "Reward channels\n")
	row("rewards", channels(r.Rewards))
	row("metrics", channels(r.Metrics))
	fmt.Fprintf(tw, "Safety instrumentation\n")
	s := r.Safety
	row("untrusted tool results", fmt.Sprintf("%d (%d tool results carry a trust label)", s.UntrustedToolResults, s.TrustLabelledToolResults))
	row("untrusted messages", fmt.Sprintf("%d (%d messages carry a trust label)", s.UntrustedMessages, s.TrustLabelledMessages))
	row("safety events", strconv.Itoa(s.SafetyEvents))
	row("human interventions", strconv.Itoa(s.HumanInterventions))
	row("safety-flow edges", strconv.Itoa(s.SafetyFlowEdges))
	fmt.Fprintf(tw, "Graph\n")
	g := r.Graph
	row("critical path (events)", strconv.Itoa(g.CriticalPath))
	row("max parallel width", strconv.Itoa(g.MaxWidth))
	row("spawn-tree depth", strconv.Itoa(g.SpawnDepth))
	row("structural parallelism", num(g.StructuralParallelism))
	if g.Cyclic {
		row("cycles", fmt.Sprintf("yes (%d events on or after a cycle are left out above)", g.EventsOnOrAfterCycles))
	}
	fmt.Fprintf(tw, "Table 13 (from the trace alone)\n")
	d := r.Derived
	row("useful-agent utilization", opt(d.UsefulAgentUtilization))
	row("exact-duplicate messages", opt(d.ExactDuplicateMessages))
	row("untrusted reach", opt(d.UntrustedReach))
	return tw.Flush()
}

// orNone is a stated name, or "(not given)".
func orNone(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}
