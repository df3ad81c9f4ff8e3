package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/masrl/masrl/corpus"
)

// This file holds the harness: the binaries it built from the working
// tree and the helpers every section uses to run and show commands.

// harness holds the built binaries and the state of one benchmark run.
type harness struct {
	ctx            context.Context
	cfg            config
	log            io.Writer
	masrl, synth   string // binaries built from the working tree
	realEntries    int
	commands       []string // every timed command, in order, for BENCHMARKS.md
	notes          []string // what could not be measured and why
	hugoSkeleton   string
	traceScripts   string
	ajvInstalled   bool
	traceSchema    string
	generatedInput []string
	siteBytes      []string // output size per site run, for the build table
	commit         string   // git commit measured, read at the start
	busyRun        bool     // stress-ng keeps a core busy for the whole run (-busy)
	loadAtStart    float64  // one-minute load average when measuring began
}

func newHarness(ctx context.Context, cfg config, log io.Writer) (*harness, error) {
	h := &harness{ctx: ctx, cfg: cfg, log: log}
	bin := filepath.Join(cfg.work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	h.masrl = filepath.Join(bin, "masrl")
	h.synth = filepath.Join(bin, "synth")
	for _, b := range [][2]string{{h.masrl, "./cmd/masrl"}, {h.synth, "./cmd/synth"}} {
		fmt.Fprintf(log, "go build -o %s %s\n", h.rel(b[0]), b[1])
		if out, err := h.cmd("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	real, err := corpus.Load(cfg.corpus)
	if err != nil {
		return nil, fmt.Errorf("real corpus: %w", err)
	}
	h.realEntries = len(real.Papers)
	// The commit is read before measuring: files edited during a long run
	// do not describe the code that was measured.
	h.commit = strings.TrimSpace(h.version("git", "rev-parse", "--short", "HEAD"))
	if out, _ := h.cmd("git", "status", "--porcelain", "--untracked-files=no").Output(); len(bytes.TrimSpace(out)) > 0 {
		h.commit += " (with uncommitted changes)"
	}
	h.hugoSkeleton = filepath.Join(cfg.repo, "bench", "hugo")
	h.traceScripts = filepath.Join(cfg.repo, "bench", "trace")
	_, err = os.Stat(filepath.Join(h.traceScripts, "node_modules", "ajv", "package.json"))
	h.ajvInstalled = err == nil
	// Ajv validates against the upstream reference schema, as
	// bench/trace/run.sh and bench/trace/RESULTS.md do.
	h.traceSchema = filepath.Join(cfg.corpus, "reference", "trace_schema.json")
	return h, nil
}

func (h *harness) cmd(name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(h.ctx, name, args...)
	c.Dir = h.cfg.repo
	return c
}

// rel shows a path relative to the repository, as BENCHMARKS.md prints it.
func (h *harness) rel(p string) string {
	if r, err := filepath.Rel(h.cfg.repo, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	if r, err := filepath.Rel(h.cfg.repo, p); err == nil && strings.HasPrefix(p, filepath.Dir(h.cfg.repo)) {
		return r
	}
	return p
}

// shown is a command line with absolute paths made relative and the built
// binaries named as the user would type them.
func (h *harness) shown(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case a == h.masrl:
			out[i] = "masrl"
		case a == h.synth:
			out[i] = "go run ./cmd/synth"
		case i == 0 && filepath.IsAbs(a):
			out[i] = filepath.Base(a) // a peer found on PATH
		case filepath.IsAbs(a):
			out[i] = h.rel(a)
		default:
			out[i] = a
		}
	}
	return strings.Join(out, " ")
}

func (h *harness) measure(tool string, size int, setup func() error, argv ...string) *result {
	j := job{tool: tool, size: size, dir: h.cfg.repo, argv: argv, shown: h.shown(argv), setup: setup}
	h.commands = append(h.commands, j.shown)
	return measure(h.ctx, j, h.cfg.runs, h.cfg.timeout, h.log)
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
