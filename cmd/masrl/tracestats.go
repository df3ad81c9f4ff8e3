package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/partial"
)

func traceStats(ctx context.Context, args []string, stdout, stderr io.Writer, tio traceIO) int {
	fail := failer(stderr, "trace stats")
	fs := newFlagSet("trace stats", "trace stats [--format text|json] [--jsonl] [--max-line BYTES] [--partial] [--findings-jsonl FILE] FILE|DIR...", stderr)
	format := &formatFlag{value: "text", choices: []string{"text", "json"}}
	fs.Var(format, "format", "output `format`: text or json")
	jsonl := fs.Bool("jsonl", false, "read every file, standard input included, as JSON Lines (one trace per line); .jsonl and .ndjson files always are")
	var limits trace.Limits
	limitFlags(fs, &limits, "line")
	asPartial := fs.Bool("partial", false, "write the partial summary of the traces (schema/partial.schema.json) instead of the report, for masrl trace merge")
	findingsTo := fs.String("findings-jsonl", "", "also write each trace that has findings to `FILE` as one JSON object per line (file, line, trace_id, findings)")
	files, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "masrl trace stats: no files (use - for standard input)")
		fs.Usage()
		return exitUsage
	}
	sf := &spanFiles{cmd: "trace stats", jsonl: *jsonl, stderr: stderr}
	files, tio, err := sf.rewrite(ctx, files, tio)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	// --partial and --findings-jsonl: a shard's partial for trace merge,
	// and its findings by trace id, written as they come.
	out, code, ok := openStatsOutputs(fs, *asPartial, *findingsTo, stderr)
	if !ok {
		return code
	}
	defer out.close()
	// One trace gets its report; a batch the distribution of the measures
	// over its valid traces. Findings go to stderr so that stdout stays
	// the report.
	var first *trace.BatchResult
	var sum *partial.Partial
	traces, invalid, ioErrs := 0, 0, 0
	trace.ValidateBatch(ctx, files, trace.BatchOptions{JSONLines: *jsonl, Limits: limits}, tio.batch(), func(r *trace.BatchResult) {
		out.add(r)
		if r.Err != nil {
			ioErrs++
			fmt.Fprintf(stderr, "masrl trace stats: %s: %v\n", unitName(r), r.Err)
			return
		}
		for _, f := range r.Result.Findings {
			fmt.Fprintln(stderr, findingLine(r, f))
		}
		traces++
		if !r.Result.Valid() {
			invalid++
		}
		if out.partial != nil {
			return
		}
		switch {
		case traces == 1:
			first = r
		case traces == 2:
			sum = partial.New()
			if first.Result.Valid() {
				sum.Add(&first.Result.Report)
			}
			fallthrough
		default:
			if r.Result.Valid() {
				sum.Add(&r.Result.Report)
			}
		}
	})
	if err := out.finish(stdout, ioErrs == 0); err != nil {
		return fail(exitUsage, "%v", err)
	}
	if ioErrs > 0 {
		return exitUsage
	}
	if sf.errors > 0 && out.partial == nil && traces == 0 {
		return fail(exitFindings, "no traces")
	}
	if out.partial != nil {
		if sf.errors > 0 {
			return exitFindings
		}
		if invalid > 0 {
			return fail(exitFindings, "%d of %s have errors and are counted in the partial but left out of its measures", invalid, count(traces, "trace"))
		}
		return exitOK
	}
	if traces == 0 {
		return fail(exitUsage, "no traces")
	}
	switch {
	case sum == nil && format.value == "json":
		err = writeJSON(stdout, first.Result.Report)
	case sum == nil:
		err = writeStatsText(stdout, &first.Result.Report)
	case format.value == "json":
		err = writeJSON(stdout, statsSummaryJSON{Invalid: invalid, Summary: sum.Summary()})
	default:
		err = writeSummaryText(stdout, sum.Summary(), invalid)
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if invalid > 0 {
		if sum == nil {
			fmt.Fprintf(stderr, "masrl trace stats: %s has %s; the figures above may be incomplete\n", unitName(first), count(first.Result.Errors, "error"))
		} else {
			fmt.Fprintf(stderr, "masrl trace stats: %d of %s have errors and are left out of the figures above\n", invalid, count(traces, "trace"))
		}
		return exitFindings
	}
	if sf.errors > 0 {
		return exitFindings
	}
	return exitOK
}

// statsSummaryJSON is the JSON report of a batch.
type statsSummaryJSON struct {
	// Invalid counts the traces with errors, left out of the summary.
	Invalid int `json:"invalid"`
	trace.Summary
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeSummaryText prints the distribution of each measure over all valid
// traces, then by topology.
func writeSummaryText(w io.Writer, s trace.Summary, invalid int) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	group := func(title string, d trace.Distribution) {
		fmt.Fprintf(tw, "%s (%s)\n", title, count(d.Traces, "trace"))
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
	if approximate(s) {
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
func approximate(s trace.Summary) bool {
	for _, d := range append([]trace.Distribution{s.Overall}, s.ByTopology...) {
		for _, m := range d.Measures {
			if m.Approximate {
				return true
			}
		}
	}
	return false
}

// writeStatsText prints the report in the order of the survey's Table 14.
func writeStatsText(w io.Writer, r *trace.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "  %s\t%s\n", k, v) }
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return "n/a"
		}
		return num(*x)
	}
	counts := func(cs []trace.Count) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, fmt.Sprintf("%s %d", c.Name, c.Count))
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	channels := func(cs []trace.Channel) string {
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

func orNone(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}
