package main

import (
	"fmt"
	"slices"
	"strings"
)

// resultTable renders groups of results (one group per size, masrl first)
// as a markdown table. Ratios compare each peer with the masrl row of its
// group: above 1 means the peer is slower or uses more memory. Wall time
// is what a user waits; CPU time (user + system of the process and its
// children) is the figure that moves least with the machine's other
// load, whose range over the runs the last column shows.
func resultTable(unit string, groups [][]*result) string {
	var b strings.Builder
	singular := map[string]string{"entries": "entry", "rows": "row", "events": "event", "traces": "trace"}[unit]
	fmt.Fprintf(&b, "| %s | tool | median (s) | min (s) | max (s) | CPU (s) | peak RSS (MB) | µs per %s | exit | time / masrl | CPU / masrl | memory / masrl | load average |\n",
		unit, singular)
	b.WriteString("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |\n")
	for _, g := range groups {
		var base *result
		for _, r := range g {
			if strings.HasPrefix(r.tool, "masrl") && r.ok() {
				base = r
				break
			}
		}
		for _, r := range g {
			if !r.ok() {
				fmt.Fprintf(&b, "| %s | %s | failed: %s | | | | | | | | | | |\n", thousands(r.size), r.tool, mdEscape(fmt.Sprint(r.err)))
				continue
			}
			tr, cr, mr := "", "", ""
			switch {
			case r == base:
				tr, cr, mr = "1", "1", "1"
			case base != nil:
				tr = fmt.Sprintf("%.2f×", r.median().Seconds()/base.median().Seconds())
				cr = fmt.Sprintf("%.2f×", r.medianCPU().Seconds()/base.medianCPU().Seconds())
				mr = fmt.Sprintf("%.2f×", r.rssMB()/base.rssMB())
			}
			fmt.Fprintf(&b, "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f | %s | %s | %s | %s | %s | %s |\n",
				thousands(r.size), r.tool, r.median().Seconds(), r.min().Seconds(), r.max().Seconds(), r.medianCPU().Seconds(),
				r.rssMB(), perUnit(r), r.exits(), tr, cr, mr, r.loadRange())
		}
	}
	return b.String()
}

// perUnit is the median time divided by the work: how cost grows with size.
func perUnit(r *result) string {
	if r.size == 0 {
		return ""
	}
	us := r.median().Seconds() * 1e6 / float64(r.size)
	switch {
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	case us >= 1:
		return fmt.Sprintf("%.1f", us)
	}
	return fmt.Sprintf("%.3f", us)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// target is one of the goals with the figure that decides it.
type target struct {
	goal   string
	figure string
	met    *bool // nil when the run did not measure it
}

func decided(goal, figure string, met bool) target { return target{goal, figure, &met} }

func targetTable(ts []target) string {
	if len(ts) == 0 {
		return "No target was measured in this run.\n"
	}
	var b strings.Builder
	b.WriteString("| target | measured | met |\n| --- | --- | --- |\n")
	for _, t := range ts {
		met := "not measured at these sizes"
		if t.met != nil {
			met = map[bool]string{true: "yes", false: "**no**"}[*t.met]
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.goal, t.figure, met)
	}
	return b.String()
}

// findAny returns the result of tool at size, successful or not, or nil.
func findAny(groups [][]*result, tool string, size int) *result {
	for _, g := range groups {
		for _, r := range g {
			if r.tool == tool && r.size == size {
				return r
			}
		}
	}
	return nil
}

// find returns the result of tool at size whose every run succeeded
// (exit 0), or nil: a fast failure decides no target.
func find(groups [][]*result, tool string, size int) *result {
	for _, g := range groups {
		for _, r := range g {
			if r.tool == tool && r.size == size && r.ok() && r.exits() == "0" {
				return r
			}
		}
	}
	return nil
}

// buildTargets decides the site's goals. Speed is judged on rebuilds over
// the previous output, the loop a user runs; the first build into an empty
// directory is compared with Hugo's as well. realEntries is the size of
// the real corpus, whose goal is decided only when it was measured.
func buildTargets(groups [][]*result, realEntries int) []target {
	const masrl, hugo = "masrl build (rebuild)", "hugo (rebuild)"
	var ts []target
	if m := find(groups, masrl, realEntries); m != nil {
		ts = append(ts, decided("site of the real corpus rebuilt in well under a second",
			fmt.Sprintf("%.3f s at %d entries", m.median().Seconds(), m.size), m.median().Seconds() < 1))
	}
	for _, c := range []struct{ goal, masrl, hugo string }{
		{"site at 10,000 entries rebuilt over the previous output at least 5× faster than Hugo rebuilding over its own", masrl, hugo},
		{"site at 10,000 entries built into an empty directory at least 5× faster than Hugo", "masrl build (empty dir)", "hugo (empty dir)"},
		{"site at 10,000 entries rebuilt at least 5× faster than the newest Hugo the module proxy builds, rebuilding over its own", masrl, hugoNewestTool + " (rebuild)"},
		{"site at 10,000 entries built into an empty directory at least 5× faster than the newest Hugo the module proxy builds", "masrl build (empty dir)", hugoNewestTool + " (empty dir)"},
	} {
		m, h := find(groups, c.masrl, 10000), find(groups, c.hugo, 10000)
		if m == nil || h == nil {
			ts = append(ts, target{goal: c.goal})
			continue
		}
		r := h.median().Seconds() / m.median().Seconds()
		ts = append(ts, decided(c.goal, fmt.Sprintf("Hugo %.2f s / masrl %.2f s = %.2f×", h.median().Seconds(), m.median().Seconds(), r), r >= 5))
	}
	m10, m100 := find(groups, masrl, 10000), find(groups, masrl, 100000)
	const goal100, goalLinear = "site at 100,000 entries rebuilt in at most 10 s and 1.5 GB",
		"cost linear: rebuild time per entry at 100,000 at most 1.5× that at 10,000"
	switch f := findAny(groups, masrl, 100000); {
	case m100 != nil:
		ts = append(ts, decided("site at 100,000 entries rebuilt in at most 10 s",
			fmt.Sprintf("%.2f s", m100.median().Seconds()), m100.median().Seconds() <= 10))
		ts = append(ts, decided("site at 100,000 entries rebuilt in at most 1.5 GB",
			fmt.Sprintf("%.0f MB peak RSS", m100.rssMB()), m100.rssMB() <= 1500))
	case f != nil:
		// Not run or failed: a build that cannot finish misses the goal.
		ts = append(ts, decided(goal100, mdEscape(fmt.Sprint(f.err)), false))
	default:
		ts = append(ts, target{goal: goal100})
	}
	switch {
	case m10 != nil && m100 != nil:
		p10, p100 := m10.median().Seconds()/1e4, m100.median().Seconds()/1e5
		ts = append(ts, decided(goalLinear,
			fmt.Sprintf("%.1f µs / %.1f µs = %.2f×", p100*1e6, p10*1e6, p100/p10), p100/p10 <= 1.5))
	case m10 != nil && findAny(groups, masrl, 100000) != nil:
		// The 100,000 build did not run; the step below it shows the trend.
		m1 := find(groups, masrl, 1000)
		if m1 == nil {
			ts = append(ts, decided(goalLinear, "100,000 not measured", false))
			break
		}
		p1, p10 := m1.median().Seconds()/1e3, m10.median().Seconds()/1e4
		ts = append(ts, decided(goalLinear,
			fmt.Sprintf("100,000 not measured; from 1,000 to 10,000 time per entry grew %.1f µs -> %.1f µs = %.2f×", p1*1e6, p10*1e6, p10/p1), false))
	default:
		ts = append(ts, target{goal: goalLinear})
	}
	return ts
}

func statsTargets(groups [][]*result) []target {
	m, p := find(groups, "masrl stats", 1000000), find(groups, "python3 stats.py", 1000000)
	if m == nil || p == nil {
		return []target{{goal: "stats at 1,000,000 rows at least 5× faster than the Python script, with less peak memory"}}
	}
	r := p.median().Seconds() / m.median().Seconds()
	return []target{
		decided("stats at 1,000,000 rows at least 5× faster than the Python script",
			fmt.Sprintf("Python %.2f s / masrl %.2f s = %.2f×", p.median().Seconds(), m.median().Seconds(), r), r >= 5),
		decided("stats at 1,000,000 rows with peak memory below the Python script's",
			fmt.Sprintf("masrl %.0f MB, Python %.0f MB", m.rssMB(), p.rssMB()), m.rssMB() < p.rssMB()),
	}
}

// traceAjvRatio is how many times faster than Ajv masrl trace validate
// must be on the 1,000,000-event trace, quiet and with the other core
// busy (issue 38: in every run).
const traceAjvRatio = 10

func traceTargets(groups [][]*result) []target {
	m := find(groups, "masrl trace validate", 1000000)
	a := find(groups, "ajv (node)", 1000000)
	goal := fmt.Sprintf("trace validation of 1,000,000 events at least %d× faster than Ajv", traceAjvRatio)
	if m == nil {
		return []target{{goal: goal + ", at most 128 MB"}}
	}
	ts := []target{decided("trace validation of 1,000,000 events in at most 128 MB",
		fmt.Sprintf("%.0f MB peak RSS", m.rssMB()), m.rssMB() <= 128)}
	if a != nil {
		r := a.median().Seconds() / m.median().Seconds()
		ts = append(ts, decided(goal,
			fmt.Sprintf("Ajv %.2f s / masrl %.2f s = %.2f×", a.median().Seconds(), m.median().Seconds(), r), r >= traceAjvRatio))
	} else {
		ts = append(ts, target{goal: goal})
	}
	return ts
}

// replaceBlocks puts each block between its markers in md. A block without
// markers in md is an error: the report would silently lose figures.
func replaceBlocks(md string, blocks map[string]string) (string, error) {
	var missing []string
	for name, body := range blocks {
		begin := "<!-- BEGIN BENCH:" + name + " -->"
		end := "<!-- END BENCH:" + name + " -->"
		i := strings.Index(md, begin)
		j := strings.Index(md, end)
		if i < 0 || j < i {
			missing = append(missing, name)
			continue
		}
		md = md[:i+len(begin)] + "\n" + strings.TrimRight(body, "\n") + "\n" + md[j:]
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return "", fmt.Errorf("no BEGIN/END BENCH markers for %s", strings.Join(missing, ", "))
	}
	return md, nil
}
