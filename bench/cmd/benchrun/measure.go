package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// sample is one timed run of a command.
type sample struct {
	wall  time.Duration
	rssKB int64 // peak resident set size in KiB, as GNU time's %M reports it
	// cpu is the CPU time the command and its children used, user and
	// system (GNU time's %U and %S): on a machine other processes load,
	// the figure that moves least with their load.
	cpu  time.Duration
	exit int
	// load is the machine's one-minute load average just before the run
	// (/proc/loadavg; -1 where there is none): the tables show its range,
	// so a reader sees what the figures shared the machine with.
	load float64
}

// result is every timed run of one command, with the figures the tables
// print: median, minimum and maximum wall time, and the median peak memory.
type result struct {
	tool    string // what is measured, e.g. "masrl build" or "hugo"
	size    int    // entries, rows or events
	command string // the command line as printed in BENCHMARKS.md
	samples []sample
	err     error // the command could not be started or was killed
}

func (r *result) ok() bool { return r.err == nil && len(r.samples) > 0 }

func (r *result) walls() []time.Duration {
	w := make([]time.Duration, len(r.samples))
	for i, s := range r.samples {
		w[i] = s.wall
	}
	slices.Sort(w)
	return w
}

func (r *result) median() time.Duration { return medianOf(r.walls()) }

// medianCPU is the median of the runs' CPU times (user plus system).
func (r *result) medianCPU() time.Duration {
	c := make([]time.Duration, len(r.samples))
	for i, s := range r.samples {
		c[i] = s.cpu
	}
	slices.Sort(c)
	return medianOf(c)
}

// loadRange is the lowest and highest load average before the runs,
// "?" where none was read.
func (r *result) loadRange() string {
	lo, hi := -1.0, -1.0
	for _, s := range r.samples {
		if s.load < 0 {
			continue
		}
		if lo < 0 || s.load < lo {
			lo = s.load
		}
		hi = max(hi, s.load)
	}
	switch {
	case lo < 0:
		return "?"
	case lo == hi:
		return fmt.Sprintf("%.1f", lo)
	}
	return fmt.Sprintf("%.1f–%.1f", lo, hi)
}

func (r *result) min() time.Duration { return r.walls()[0] }
func (r *result) max() time.Duration { return r.walls()[len(r.samples)-1] }

// rssMB is the median peak memory of the runs in MB (10^6 bytes).
func (r *result) rssMB() float64 {
	k := make([]int64, len(r.samples))
	for i, s := range r.samples {
		k[i] = s.rssKB
	}
	slices.Sort(k)
	var m float64
	if n := len(k); n%2 == 1 {
		m = float64(k[n/2])
	} else {
		m = float64(k[n/2-1]+k[n/2]) / 2
	}
	return m * 1024 / 1e6
}

// exits lists the distinct exit statuses of the runs.
func (r *result) exits() string {
	var codes []int
	for _, s := range r.samples {
		if !slices.Contains(codes, s.exit) {
			codes = append(codes, s.exit)
		}
	}
	slices.Sort(codes)
	var b []string
	for _, c := range codes {
		b = append(b, fmt.Sprint(c))
	}
	return strings.Join(b, ",")
}

func medianOf(d []time.Duration) time.Duration {
	n := len(d)
	if n%2 == 1 {
		return d[n/2]
	}
	return (d[n/2-1] + d[n/2]) / 2
}

// job is a command to time.
type job struct {
	tool  string
	size  int
	dir   string   // working directory
	argv  []string // program and arguments
	shown string   // the command as documented; argv joined when empty
	// setup runs before every run, untimed (removing the previous output).
	setup func() error
}

// measure runs j once untimed as a warm-up (file cache, lazily built
// binaries) unless that run took longer than warmupLimit, then runs times
// more and records each. A run that exits non-zero is still recorded: the
// tables show exit statuses. Output is discarded; the last lines of stderr
// are kept for the log when a run fails.
func measure(ctx context.Context, j job, runs int, timeout time.Duration, log io.Writer) *result {
	r := &result{tool: j.tool, size: j.size, command: j.shown}
	if r.command == "" {
		r.command = strings.Join(j.argv, " ")
	}
	fmt.Fprintf(log, "  %-22s %9d  %s\n", j.tool, j.size, r.command)
	first, err := runOnce(ctx, j, timeout, log)
	if err != nil {
		r.err = err
		fmt.Fprintf(log, "    failed: %v\n", err)
		return r
	}
	const warmupLimit = 20 * time.Second
	if first.wall > warmupLimit {
		r.samples = append(r.samples, first) // too slow to throw away
	}
	for len(r.samples) < runs {
		s, err := runOnce(ctx, j, timeout, log)
		if err != nil {
			r.err = err
			fmt.Fprintf(log, "    failed: %v\n", err)
			return r
		}
		r.samples = append(r.samples, s)
	}
	fmt.Fprintf(log, "  %-22s %9d  median %.3f s  min %.3f  max %.3f  cpu %.3f s  peak %.1f MB  exit %s\n",
		j.tool, j.size, r.median().Seconds(), r.min().Seconds(), r.max().Seconds(), r.medianCPU().Seconds(), r.rssMB(), r.exits())
	return r
}

// measureAlternating runs jobs in rounds, each round one run of every job
// in turn, so that a change in the machine's load meets every job alike.
// The first warmups rounds are untimed. A job that fails to run is
// dropped from the later rounds.
func measureAlternating(ctx context.Context, jobs []job, runs, warmups int, timeout time.Duration, log io.Writer) []*result {
	rs := make([]*result, len(jobs))
	for i, j := range jobs {
		rs[i] = &result{tool: j.tool, size: j.size, command: j.shown}
		if rs[i].command == "" {
			rs[i].command = strings.Join(j.argv, " ")
		}
		fmt.Fprintf(log, "  %-22s %9d  %s\n", j.tool, j.size, rs[i].command)
	}
	for round := range warmups + runs {
		for i, j := range jobs {
			if rs[i].err != nil {
				continue
			}
			s, err := runOnce(ctx, j, timeout, log)
			if err != nil {
				rs[i].err = err
				fmt.Fprintf(log, "    %s failed: %v\n", j.tool, err)
				continue
			}
			if round >= warmups {
				rs[i].samples = append(rs[i].samples, s)
			}
		}
	}
	for _, r := range rs {
		if r.ok() {
			fmt.Fprintf(log, "  %-22s %9d  median %.3f s  min %.3f  max %.3f  cpu %.3f s  peak %.1f MB  exit %s\n",
				r.tool, r.size, r.median().Seconds(), r.min().Seconds(), r.max().Seconds(), r.medianCPU().Seconds(), r.rssMB(), r.exits())
		}
	}
	return rs
}

// runOnce runs the command under GNU time, which reports its peak memory
// (%M, the child's ru_maxrss). Reading ru_maxrss of a child started
// directly from this process would be wrong: Go starts children with
// vfork, and the kernel then credits the child with the parent's own peak
// until exec. Wall time is measured here, around the whole process.
func runOnce(ctx context.Context, j job, timeout time.Duration, log io.Writer) (sample, error) {
	if j.setup != nil {
		if err := j.setup(); err != nil {
			return sample{}, fmt.Errorf("setup: %w", err)
		}
	}
	load := loadAverage()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	mem, err := os.CreateTemp("", "benchrun-time-*")
	if err != nil {
		return sample{}, err
	}
	mem.Close()
	defer os.Remove(mem.Name())
	args := append([]string{"-f", "%M %U %S", "-o", mem.Name(), "--"}, j.argv...)
	cmd := exec.CommandContext(runCtx, gnuTime, args...)
	cmd.Dir = j.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr // stdout goes to /dev/null
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && runCtx.Err() == nil && ee.Exited() && ee.ExitCode() < 126:
	case runCtx.Err() != nil && ctx.Err() == nil:
		return sample{}, fmt.Errorf("did not finish within %s", timeout)
	default:
		return sample{}, fmt.Errorf("%s: %w (%s)", j.argv[0], err, lastLines(stderr.String(), 5))
	}
	s := sample{wall: wall, exit: cmd.ProcessState.ExitCode(), load: load}
	b, err := os.ReadFile(mem.Name())
	if err != nil {
		return sample{}, err
	}
	// GNU time writes "Command exited with non-zero status N" before the
	// figure when the command fails; the figure is the last line.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if s.rssKB, s.cpu, err = parseTimeLine(lines[len(lines)-1]); err != nil {
		return sample{}, fmt.Errorf("reading GNU time's output %q: %w", b, err)
	}
	if s.exit != 0 {
		fmt.Fprintf(log, "    exit %d: %s\n", s.exit, lastLines(stderr.String(), 3))
	}
	return s, nil
}

// parseTimeLine reads GNU time's "%M %U %S" line: the peak memory in
// KiB and the user and system seconds, which it adds.
func parseTimeLine(line string) (int64, time.Duration, error) {
	f := strings.Fields(line)
	if len(f) != 3 {
		return 0, 0, fmt.Errorf("want three fields (peak KiB, user s, system s), have %d", len(f))
	}
	rss, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, 0, err
	}
	var cpu time.Duration
	for _, v := range f[1:] {
		sec, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, 0, err
		}
		cpu += time.Duration(sec * float64(time.Second))
	}
	return rss, cpu, nil
}

// gnuTime is GNU time, from Debian's package time (make bench installs it).
const gnuTime = "/usr/bin/time"

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
