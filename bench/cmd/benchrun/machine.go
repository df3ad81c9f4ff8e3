package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// This file describes the run for BENCHMARKS.md: the machine and the
// commands measured.

// version runs a command and returns the first line it prints, or "not installed".
func (h *harness) version(name string, args ...string) string {
	if _, err := exec.LookPath(name); err != nil {
		return "not installed"
	}
	out, err := h.cmd(name, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return "error: " + err.Error()
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

func (h *harness) machineTable(elapsed time.Duration) string {
	model := "unknown"
	if out, err := exec.Command("lscpu").Output(); err == nil {
		for l := range strings.SplitSeq(string(out), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "Model name" {
				model = strings.TrimSpace(v)
			}
		}
	}
	mem := "unknown"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for l := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
					mem = fmt.Sprintf("%.1f GiB", kb/(1<<20))
				}
			}
		}
	}
	commit := h.commit
	ajv := "not installed"
	if b, err := os.ReadFile(filepath.Join(h.traceScripts, "node_modules", "ajv", "package.json")); err == nil {
		var p struct{ Version string }
		if json.Unmarshal(b, &p) == nil {
			ajv = "ajv " + p.Version
		}
	}
	mode := fmt.Sprintf("full sizes, %d timed runs per command", h.cfg.runs)
	if h.cfg.quick {
		mode = fmt.Sprintf("quick sizes (-quick), %d timed runs per command", h.cfg.runs)
	}
	rows := [][2]string{
		{"date (UTC)", time.Now().UTC().Format("2006-01-02 15:04")},
		{"masrl commit", commit},
		{"run", mode},
		{"harness wall time", elapsed.Round(time.Second).String()},
		{"load average (1 min), start → end", loadText(h.loadAtStart) + " → " + loadText(loadAverage())},
		{"load added by the run", map[bool]string{true: "stress-ng --cpu 1 --cpu-method loop (one core busy) throughout", false: "none"}[h.busyRun]},
		{"CPUs (nproc)", strconv.Itoa(runtime.NumCPU())},
		{"CPU model (lscpu)", model},
		{"memory", mem},
		{"OS", runtime.GOOS + "/" + runtime.GOARCH + ", kernel " + h.version("uname", "-r")},
		{"Go", h.version("go", "version")},
		{"Hugo", h.version("hugo", "version")},
		{"Hugo, newest (-hugo-newest)", h.newestHugoVersion()},
		{"Python", h.version("python3", "--version")},
		{"Node.js", h.version("node", "--version")},
		{"Ajv", ajv},
	}
	var b strings.Builder
	b.WriteString("| | |\n| --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s |\n", r[0], mdEscape(r[1]))
	}
	return b.String()
}

func (h *harness) commandList() string {
	var b strings.Builder
	b.WriteString("Inputs, generated once and reused while their inputs are unchanged:\n\n```sh\n")
	seen := map[string]bool{}
	for _, c := range h.generatedInput {
		if !seen[c] {
			seen[c] = true
			b.WriteString(c + "\n")
		}
	}
	b.WriteString("```\n\nTimed commands (`masrl` is `go build -o bench/_work/bin/masrl ./cmd/masrl`):\n\n```sh\n")
	for _, c := range h.commands {
		if !seen[c] {
			seen[c] = true
			b.WriteString(c + "\n")
		}
	}
	b.WriteString("```\n")
	if len(h.notes) > 0 {
		b.WriteString("\nNot measured in this run:\n\n")
		for _, n := range h.notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// newestHugoVersion is the version line of the newest Hugo, or why there
// is none.
func (h *harness) newestHugoVersion() string {
	if h.cfg.hugoNewest == "" {
		return "not measured (no -hugo-newest)"
	}
	return h.version(h.cfg.hugoNewest, "version")
}
