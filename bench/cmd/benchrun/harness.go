package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/synth"
)

// harness holds the built binaries and what this build of masrl can do.
type harness struct {
	ctx          context.Context
	cfg          config
	log          io.Writer
	masrl, synth string // binaries built from the working tree
	realEntries  int
	has          map[string]bool // masrl subcommands present in this build
	synthTrace   bool
	// checkClaimsFlag: masrl check has --claims, so synthetic corpora,
	// which cannot reproduce the paper's figures, are checked without them.
	checkClaimsFlag bool
	commands        []string // every timed command, in order, for BENCHMARKS.md
	notes           []string // what could not be measured and why
	hugoSkeleton    string
	traceScripts    string
	ajvInstalled    bool
	traceSchema     string
	generatedInput  []string
	siteBytes       []string // output size per site run, for the build table
	commit          string   // git commit measured, read at the start
}

func newHarness(ctx context.Context, cfg config, log io.Writer) (*harness, error) {
	h := &harness{ctx: ctx, cfg: cfg, log: log, has: map[string]bool{}}
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
	for _, sub := range [][]string{{"build"}, {"stats"}, {"check"}, {"trace", "validate"}} {
		out, _ := h.cmd(h.masrl, append(sub, "-h")...).CombinedOutput()
		h.has[strings.Join(sub, " ")] = !bytes.Contains(out, []byte("unknown command")) && !bytes.Contains(out, []byte("unknown subcommand"))
	}
	out, _ := h.cmd(h.masrl, "check", "-h").CombinedOutput()
	h.checkClaimsFlag = bytes.Contains(out, []byte("-claims"))
	out, _ = h.cmd(h.synth, "trace", "-h").CombinedOutput()
	h.synthTrace = bytes.Contains(out, []byte("-events"))
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

// stamp fingerprints the inputs of a generated artefact: when it matches
// the stamp stored beside the artefact, the artefact is reused.
func stamp(parts ...[]byte) string {
	s := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(s, "%d:", len(p))
		s.Write(p)
	}
	return hex.EncodeToString(s.Sum(nil))
}

func (h *harness) readOrEmpty(p string) []byte {
	b, _ := os.ReadFile(filepath.Join(h.cfg.repo, p))
	return b
}

// fresh reports whether the artefact at path was made from the same inputs.
func fresh(path, st string) bool {
	b, err := os.ReadFile(path + ".stamp")
	return err == nil && string(b) == st
}

func setStamp(path, st string) error { return os.WriteFile(path+".stamp", []byte(st), 0o644) }

// exclusionsFor keeps the real corpus's ratio of exclusions to entries,
// within the three-digit record ids.
func (h *harness) exclusionsFor(n int) int {
	return min(synth.MaxExclusions, n*32/84)
}

// corpusDir returns the corpus of n entries: the real one for 0, otherwise
// a synthetic corpus, generated by `synth corpus` unless already there.
func (h *harness) corpusDir(n int) (string, int, error) {
	if n == 0 {
		return h.cfg.corpus, h.realEntries, nil
	}
	m := h.exclusionsFor(n)
	dir := filepath.Join(h.cfg.work, fmt.Sprintf("corpus-%d", n))
	args := []string{"corpus", "-entries", strconv.Itoa(n), "-exclusions", strconv.Itoa(m),
		"-seed", strconv.FormatUint(h.cfg.seed, 10), "-from", h.cfg.corpus, "-out", dir}
	var src [][]byte
	// The stamp leaves out the paths (-from, -out): moving the work
	// directory or the checkout does not change the data.
	src = append(src, []byte(strings.Join(args[:len(args)-4], " ")), h.readOrEmpty("internal/synth/corpus.go"))
	for _, f := range []string{corpus.PapersFile, corpus.ExcludedFile, corpus.BibFile} {
		b, _ := os.ReadFile(filepath.Join(h.cfg.corpus, f))
		src = append(src, b)
	}
	st := stamp(src...)
	h.generatedInput = append(h.generatedInput, h.shown(append([]string{h.synth}, args...)))
	if fresh(dir, st) {
		fmt.Fprintf(h.log, "reusing %s\n", h.rel(dir))
		return dir, n, nil
	}
	fmt.Fprintf(h.log, "generating %s\n", h.rel(dir))
	os.RemoveAll(dir)
	if out, err := h.cmd(h.synth, args...).CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("synth corpus: %v\n%s", err, out)
	}
	return dir, n, setStamp(dir, st)
}

// hugoSite returns a Hugo site holding the corpus of n entries.
func (h *harness) hugoSite(n int, corpusDir string) (string, error) {
	dir := filepath.Join(h.cfg.work, fmt.Sprintf("hugo-%d", n))
	var src [][]byte
	src = append(src, h.readOrEmpty("bench/cmd/benchrun/hugo.go"))
	if b, err := os.ReadFile(corpusDir + ".stamp"); err == nil {
		src = append(src, b)
	} else {
		for _, f := range []string{corpus.PapersFile, corpus.BibFile} {
			b, _ := os.ReadFile(filepath.Join(corpusDir, f))
			src = append(src, b)
		}
	}
	filepath.WalkDir(h.hugoSkeleton, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(h.hugoSkeleton, p)
			src = append(src, []byte(rel), b)
		}
		return nil
	})
	st := stamp(src...)
	if fresh(dir, st) {
		fmt.Fprintf(h.log, "reusing %s\n", h.rel(dir))
		return dir, nil
	}
	fmt.Fprintf(h.log, "converting %s to Hugo content in %s\n", h.rel(corpusDir), h.rel(dir))
	if err := writeHugoSite(h.hugoSkeleton, corpusDir, dir); err != nil {
		return "", err
	}
	return dir, setStamp(dir, st)
}

// moveAside returns a setup that renames the previous run's output dir
// into trash instead of deleting it, so that every run writes a fresh
// directory while no file is deleted during the measurement. On this
// machine's ext4, which has no journal, allocating an inode skips each
// inode freed in the last one to six minutes one by one (the kernel's
// recently_deleted), so a build that follows the deletion of a previous
// build's tens of thousands of files spends seconds of system time in
// that scan, more with every run: deleting between runs measured the
// file system's history, not the tool. buildSection empties trash when
// all sizes are measured.
func moveAside(dir, trash string) func() error {
	return func() error {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return nil
		}
		if err := os.MkdirAll(trash, 0o755); err != nil {
			return err
		}
		dst, err := os.MkdirTemp(trash, filepath.Base(dir)+"-")
		if err != nil {
			return err
		}
		return os.Rename(dir, filepath.Join(dst, "out"))
	}
}

// outputGrowth remembers how large a tool's output was at each size, to
// refuse a size whose output would not fit on the disk.
type outputGrowth struct {
	sizes []int
	bytes []int64
}

// estimate extrapolates the output at n from the last two sizes, as
// bytes ∝ size^p; ok is false with fewer than two sizes.
func (g *outputGrowth) estimate(n int) (bytes float64, p float64, ok bool) {
	k := len(g.sizes)
	if k < 2 || g.bytes[k-2] <= 0 || g.bytes[k-1] <= 0 {
		return 0, 0, false
	}
	n1, n2 := float64(g.sizes[k-2]), float64(g.sizes[k-1])
	b1, b2 := float64(g.bytes[k-2]), float64(g.bytes[k-1])
	p = math.Log(b2/b1) / math.Log(n2/n1)
	return b2 * math.Pow(float64(n)/n2, p), p, true
}

func dirSize(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

func freeDisk(dir string) float64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return math.Inf(1)
	}
	return float64(st.Bavail) * float64(st.Bsize)
}

// siteRun measures one site generator at one size unless its output,
// extrapolated from the smaller sizes, would take more than half the free
// disk; it records the output's size for the next estimate.
func (h *harness) siteRun(g *outputGrowth, tool string, size int, out string, argv ...string) *result {
	runs := float64(h.cfg.runs + 1) // every run's output is kept until the section ends
	if est, p, ok := g.estimate(size); ok && est*runs > freeDisk(h.cfg.work)/2 {
		err := fmt.Errorf("not run: its %.0f runs' outputs would be about %.0f GB (one grows as entries^%.2f), more than half the free disk", runs, est*runs/1e9, p)
		h.notes = append(h.notes, fmt.Sprintf("%s at %s entries: %v.", tool, thousands(size), err))
		fmt.Fprintf(h.log, "  %-22s %9d  %v\n", tool, size, err)
		h.commands = append(h.commands, h.shown(argv))
		return &result{tool: tool, size: size, command: h.shown(argv), err: err}
	}
	aside := moveAside(out, h.trash())
	if err := aside(); err != nil { // an output left by an interrupted run
		return &result{tool: tool, size: size, command: h.shown(argv), err: err}
	}
	r := h.measure(tool, size, aside, argv...)
	if r.ok() {
		b := dirSize(out)
		g.sizes, g.bytes = append(g.sizes, size), append(g.bytes, b)
		fmt.Fprintf(h.log, "  %-22s %9d  output %.1f MB\n", tool, size, float64(b)/1e6)
		h.siteBytes = append(h.siteBytes, fmt.Sprintf("%s at %s entries: %.1f MB", tool, thousands(size), float64(b)/1e6))
	}
	aside()
	return r
}

// trash is where siteRun keeps the outputs of earlier runs.
func (h *harness) trash() string { return filepath.Join(h.cfg.work, "out", "trash") }

func (h *harness) buildSection(ns []int) (string, []target, error) {
	var groups [][]*result
	var masrlGrowth, hugoGrowth outputGrowth
	if !h.has["build"] {
		h.notes = append(h.notes, "`masrl build` is not in this build of masrl: the site rows are missing.")
	}
	if _, err := exec.LookPath("hugo"); err != nil {
		h.notes = append(h.notes, "hugo is not installed (make bench installs Debian's package): the Hugo rows are missing.")
	}
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		var g []*result
		if h.has["build"] {
			out := filepath.Join(h.cfg.work, "out", fmt.Sprintf("masrl-%d", size))
			g = append(g, h.siteRun(&masrlGrowth, "masrl build", size, out, h.masrl, "build", "--corpus", dir, "--out", out))
		}
		if hugo, err := exec.LookPath("hugo"); err == nil {
			site, err := h.hugoSite(size, dir)
			if err != nil {
				return "", nil, err
			}
			out := filepath.Join(h.cfg.work, "out", fmt.Sprintf("hugo-%d", size))
			g = append(g, h.siteRun(&hugoGrowth, "hugo", size, out, hugo, "--quiet", "--source", site, "--destination", out))
		}
		groups = append(groups, g)
	}
	if err := os.RemoveAll(h.trash()); err != nil {
		return "", nil, err
	}
	tbl := resultTable("entries", groups)
	if len(h.siteBytes) > 0 {
		tbl += "\nSize of the output written: " + strings.Join(h.siteBytes, "; ") + ".\n"
	}
	return tbl, buildTargets(groups), nil
}

func (h *harness) statsSection(ns []int) (string, []target, error) {
	var groups [][]*result
	if !h.has["stats"] {
		h.notes = append(h.notes, "`masrl stats` is not in this build of masrl: only the Python rows are measured.")
	}
	script := filepath.Join(h.cfg.repo, "bench", "stats.py")
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		var g []*result
		if h.has["stats"] {
			g = append(g, h.measure("masrl stats", size, nil, h.masrl, "stats", "--corpus", dir))
		}
		g = append(g, h.measure("python3 stats.py", size, nil, "python3", script, dir))
		g = append(g, h.measure("python3 stats.py --stream", size, nil, "python3", script, "--stream", dir))
		groups = append(groups, g)
	}
	return resultTable("rows", groups), statsTargets(groups), nil
}

func (h *harness) checkSection(ns []int) (string, []target, error) {
	var groups [][]*result
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		argv := []string{h.masrl, "check", "--corpus", dir}
		if n != 0 && h.checkClaimsFlag {
			argv = append(argv, "--claims=false")
		}
		groups = append(groups, []*result{h.measure("masrl check", size, nil, argv...)})
	}
	return resultTable("entries", groups), nil, nil
}

// traceFile returns a synthetic trace of n events.
func (h *harness) traceFile(n int) (string, error) {
	path := filepath.Join(h.cfg.work, fmt.Sprintf("trace-%d.json", n))
	args := []string{"trace", "-events", strconv.Itoa(n), "-seed", strconv.FormatUint(h.cfg.seed, 10)}
	st := stamp([]byte(strings.Join(args, " ")), h.readOrEmpty("internal/synth/trace.go"))
	h.generatedInput = append(h.generatedInput, h.shown(append([]string{h.synth}, args...))+" > "+h.rel(path))
	if fresh(path, st) {
		fmt.Fprintf(h.log, "reusing %s\n", h.rel(path))
		return path, nil
	}
	fmt.Fprintf(h.log, "generating %s\n", h.rel(path))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	c := h.cmd(h.synth, args...)
	c.Stdout = f
	var stderr bytes.Buffer
	c.Stderr = &stderr
	err = c.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("synth trace: %v: %s", err, stderr.String())
	}
	return path, setStamp(path, st)
}

func (h *harness) traceSection(n int) (string, []target, error) {
	if !h.synthTrace || !h.has["trace validate"] {
		h.notes = append(h.notes, "`masrl trace validate` or `synth trace` is not in this build: the trace rows are missing.")
		return "Not measured: `masrl trace validate` is not in this build.\n", nil, nil
	}
	file, err := h.traceFile(n)
	if err != nil {
		return "", nil, err
	}
	g := []*result{h.measure("masrl trace validate", n, nil, h.masrl, "trace", "validate", file)}
	if h.ajvInstalled {
		g = append(g, h.measure("ajv (node)", n, nil, "node", filepath.Join(h.traceScripts, "ajv-validate.mjs"), h.traceSchema, file))
	} else {
		h.notes = append(h.notes, "Ajv is not installed in bench/trace/node_modules (make bench runs npm ci there): the Ajv row is missing.")
	}
	if py := filepath.Join(h.traceScripts, "validate.py"); fileExists(py) {
		g = append(g, h.measure("python3 validate.py", n, nil, "python3", py, file))
	}
	groups := [][]*result{g}
	return resultTable("events", groups), traceTargets(groups), nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

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
		{"CPUs (nproc)", strconv.Itoa(runtime.NumCPU())},
		{"CPU model (lscpu)", model},
		{"memory", mem},
		{"OS", runtime.GOOS + "/" + runtime.GOARCH + ", kernel " + h.version("uname", "-r")},
		{"Go", h.version("go", "version")},
		{"Hugo", h.version("hugo", "version")},
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
