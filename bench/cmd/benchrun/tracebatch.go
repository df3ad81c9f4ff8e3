package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
)

// The trace-batch section: a JSON Lines file of many small traces
// validated by masrl (in parallel, on all cores) and by Ajv line by line
// (bench/trace/ajv-validate.mjs reads a .jsonl file so), and the
// 1,000,000-event trace of the trace section again, with the second core
// kept busy by stress-ng, because the margin over Ajv must hold
// on a loaded machine too.

// traceBatchFile returns a synthetic JSON Lines file of n traces of about
// 100 events each (about 19 kB a line).
func (h *harness) traceBatchFile(n int) (string, error) {
	path := filepath.Join(h.cfg.work, fmt.Sprintf("traces-%d.jsonl", n))
	args := []string{"traces", "-traces", strconv.Itoa(n), "-events", "100", "-seed", strconv.FormatUint(h.cfg.seed, 10)}
	return h.synthFile(path, args, h.readOrEmpty("internal/synth/trace.go"), h.readOrEmpty("internal/synth/tracelines.go"))
}

// busy keeps one core busy until the returned function is called:
// stress-ng with one CPU hog (make bench-peers installs Debian's), which
// the measured commands then share the machine with. In a run that is
// busy throughout (-busy) the core is busy already and busy adds nothing.
func (h *harness) busy() (stop func(), err error) {
	if h.busyRun {
		return func() {}, nil
	}
	if _, err := exec.LookPath("stress-ng"); err != nil {
		return nil, fmt.Errorf("stress-ng is not installed (make bench-peers installs it): %w", err)
	}
	// Its own process group, so that stopping it stops the hog it forks
	// too; --timeout ends them should this process die first.
	c := exec.CommandContext(h.ctx, "stress-ng", "--cpu", "1", "--cpu-method", "loop", "--timeout", "6h", "--quiet")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := c.Start(); err != nil {
		return nil, err
	}
	// SIGTERM to the group: stress-ng then reaps its hog and exits.
	return func() {
		syscall.Kill(-c.Process.Pid, syscall.SIGTERM)
		c.Wait()
	}, nil
}

func (h *harness) traceBatchSection(traces, events int) (string, []target, error) {
	if !h.ajvInstalled {
		h.notes = append(h.notes, "Ajv is not installed in bench/trace/node_modules: the trace-batch rows are missing.")
		return "Not measured: Ajv is missing.\n", nil, nil
	}
	batch, err := h.traceBatchFile(traces)
	if err != nil {
		return "", nil, err
	}
	b := []*result{
		h.measure("masrl trace validate", traces, nil, h.masrl, "trace", "validate", batch),
		h.measure("ajv (node), line by line", traces, nil, "node", filepath.Join(h.traceScripts, "ajv-validate.mjs"), h.traceSchema, batch),
	}
	one, err := h.traceFile(events)
	if err != nil {
		return "", nil, err
	}
	stop, err := h.busy()
	if err != nil {
		return "", nil, err
	}
	busy := []*result{
		h.measure("masrl trace validate, other core busy", events, nil, h.masrl, "trace", "validate", one),
		h.measure("ajv (node), other core busy", events, nil, "node", filepath.Join(h.traceScripts, "ajv-validate.mjs"), h.traceSchema, one),
	}
	stop()
	tbl := resultTable("traces", [][]*result{b}) + "\n" + resultTable("events", [][]*result{busy})
	return tbl, traceBatchTargets(traces, b, events, busy), nil
}

// traceBatchTargets decides the batch target (at least 5× Ajv) and the
// single-trace one under load (at least traceAjvRatio× Ajv, at most 128 MB).
func traceBatchTargets(traces int, batch []*result, events int, busy []*result) []target {
	var ts []target
	goal := fmt.Sprintf("%d-trace JSON Lines batch validated at least 5× faster than Ajv line by line", traces)
	m, a := find([][]*result{batch}, "masrl trace validate", traces), find([][]*result{batch}, "ajv (node), line by line", traces)
	if m != nil && a != nil {
		r := a.median().Seconds() / m.median().Seconds()
		ts = append(ts, decided(goal, fmt.Sprintf("Ajv %.2f s / masrl %.2f s = %.2f×", a.median().Seconds(), m.median().Seconds(), r), r >= 5))
	} else {
		ts = append(ts, target{goal: goal})
	}
	goal = fmt.Sprintf("trace validation of %d events, other core busy, at least %d× faster than Ajv", events, traceAjvRatio)
	m, a = find([][]*result{busy}, "masrl trace validate, other core busy", events), find([][]*result{busy}, "ajv (node), other core busy", events)
	if m == nil {
		return append(ts, target{goal: goal})
	}
	if a != nil {
		r := a.median().Seconds() / m.median().Seconds()
		ts = append(ts, decided(goal, fmt.Sprintf("Ajv %.2f s / masrl %.2f s = %.2f×", a.median().Seconds(), m.median().Seconds(), r), r >= traceAjvRatio))
	} else {
		ts = append(ts, target{goal: goal})
	}
	return append(ts, decided(fmt.Sprintf("trace validation of %d events, other core busy, in at most 128 MB", events),
		fmt.Sprintf("%.0f MB peak RSS", m.rssMB()), m.rssMB() <= 128))
}
