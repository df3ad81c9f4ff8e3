package main

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The site section measures the loop a user runs: a build again over the
// tool's own previous output, `masrl build` and `hugo` alternating run by
// run, with nothing moved or removed between runs; and a first build into
// an empty directory, alternating the same way. Each tool writes its own
// output directories under -work/out/rebuild and -work/out/first.
//
// A rebuild is measured after two untimed builds into the same directory:
// the first creates the output, the second the previous output a rebuild
// finds (for masrl also the buffer beside it, see site/outdir.go), so that
// every timed run is the third build or later, as in a user's loop.
//
// A first build needs an empty directory without a deletion just before
// it: on this machine's ext4, which has no journal, allocating an inode
// skips each inode freed in the last one to six minutes one by one (the
// kernel's recently_deleted), so a build that follows the deletion of a
// previous build's tens of thousands of files spends seconds of system
// time in that scan, more with every run. Deleting between runs would
// measure the file system's history, not the tool: the previous output is
// renamed into a trash directory instead, which the section empties when
// every size is measured.

// siteMode is one of the two ways the section runs the generators.
type siteMode struct {
	name    string // as the tables show it, after the tool
	dir     string // under -work/out
	warmups int    // untimed runs before the timed ones
	fresh   bool   // move the previous output aside before every run
	copies  int    // outputs on disk per tool while measuring, besides trash
}

var (
	rebuildMode = siteMode{name: "rebuild", dir: "rebuild", warmups: 2, copies: 2}
	firstMode   = siteMode{name: "empty dir", dir: "first", warmups: 1, fresh: true, copies: 1}
)

// hugoNewestTool names the newest Hugo's rows: Debian's hugo is years
// behind the releases, so a user who installs Hugo today gets this one.
const hugoNewestTool = "hugo-newest"

// siteTool is a site generator and its command line for an output dir.
type siteTool struct {
	name string
	argv func(out string) []string
}

func (h *harness) buildSection(ns []int) (string, []target, error) {
	var groups [][]*result
	hugo, hugoErr := exec.LookPath("hugo")
	if hugoErr != nil {
		h.notes = append(h.notes, "hugo is not installed (make bench installs Debian's package): the Hugo rows are missing.")
	}
	growth := map[string]*outputGrowth{}
	for _, n := range ns {
		dir, size, err := h.corpusDir(n)
		if err != nil {
			return "", nil, err
		}
		tools := []siteTool{{"masrl build", func(out string) []string { return masrlBuildArgv(h.masrl, dir, out, n != 0) }}}
		var hugos [][2]string // tool name, binary
		if hugoErr == nil {
			hugos = append(hugos, [2]string{"hugo", hugo})
		}
		if h.cfg.hugoNewest != "" {
			hugos = append(hugos, [2]string{hugoNewestTool, h.cfg.hugoNewest})
		}
		if len(hugos) > 0 {
			site, err := h.hugoSite(size, dir, h.hugoSkeleton)
			if err != nil {
				return "", nil, err
			}
			for _, hg := range hugos {
				bin := hg[1]
				tools = append(tools, siteTool{hg[0], func(out string) []string {
					return []string{bin, "--quiet", "--source", site, "--destination", out}
				}})
			}
		}
		for _, mode := range []siteMode{rebuildMode, firstMode} {
			g, err := h.siteRuns(size, tools, mode, growth)
			if err != nil {
				return "", nil, err
			}
			groups = append(groups, g)
		}
	}
	// Untimed: the outputs of every run, and the rebuilds' outputs, which
	// would otherwise stay on the disk.
	for _, d := range []string{h.trash(), filepath.Join(h.cfg.work, "out", rebuildMode.dir)} {
		if err := os.RemoveAll(d); err != nil {
			return "", nil, err
		}
	}
	h.settleDeletion()
	tbl := resultTable("entries", groups)
	if len(h.siteBytes) > 0 {
		tbl += "\nSize of the output written: " + strings.Join(h.siteBytes, "; ") + ".\n"
	}
	return tbl, buildTargets(groups, h.realEntries), nil
}

// masrlBuildArgv is the command line of masrl build of dir into out. A
// synthetic corpus cannot reproduce the paper's figures, and a failing
// claim refuses the build (after the check, half a second into it), so
// it is built with --claims=false, as the check section checks it.
func masrlBuildArgv(masrl, dir, out string, synthetic bool) []string {
	argv := []string{masrl, "build", "--corpus", dir, "--out", out, "--profile", "survey"}
	if synthetic {
		argv = append(argv, "--claims=false")
	}
	return argv
}

// siteRuns measures the tools at one size in one mode, alternating them
// run by run. A tool whose outputs, extrapolated from the smaller sizes,
// would take more than half the free disk is not run.
func (h *harness) siteRuns(size int, tools []siteTool, mode siteMode, growth map[string]*outputGrowth) ([]*result, error) {
	var jobs []job
	var outs, names []string
	var skipped []*result
	for _, t := range tools {
		out := filepath.Join(h.cfg.work, "out", mode.dir, fmt.Sprintf("%s-%d", strings.ReplaceAll(t.name, " ", "-"), size))
		argv := t.argv(out)
		tool := t.name + " (" + mode.name + ")"
		g := growth[t.name]
		if g == nil {
			g = &outputGrowth{}
			growth[t.name] = g
		}
		copies := float64(mode.copies)
		if mode.fresh {
			copies += float64(mode.warmups + h.cfg.runs) // every run's output is kept until the section ends
		}
		if est, p, ok := g.estimate(size); ok && est*copies > freeDisk(h.cfg.work)/2 {
			err := fmt.Errorf("not run: its outputs would be about %.0f GB (one grows as entries^%.2f), more than half the free disk", est*copies/1e9, p)
			h.notes = append(h.notes, fmt.Sprintf("%s at %s entries: %v.", tool, thousands(size), err))
			fmt.Fprintf(h.log, "  %-22s %9d  %v\n", tool, size, err)
			h.commands = append(h.commands, h.shown(argv))
			skipped = append(skipped, &result{tool: tool, size: size, command: h.shown(argv), err: err})
			continue
		}
		var setup func() error
		if mode.fresh {
			setup = moveAside(out, h.trash())
			if err := setup(); err != nil { // an output left by an interrupted run
				return nil, err
			}
		}
		j := job{tool: tool, size: size, dir: h.cfg.repo, argv: argv, shown: h.shown(argv), setup: setup}
		h.commands = append(h.commands, j.shown)
		jobs = append(jobs, j)
		outs, names = append(outs, out), append(names, t.name)
	}
	rs := measureAlternating(h.ctx, jobs, h.cfg.runs, mode.warmups, h.cfg.timeout, h.log)
	for i, r := range rs {
		if !r.ok() {
			continue
		}
		b := dirSize(outs[i])
		name := names[i]
		if g := growth[name]; len(g.sizes) == 0 || g.sizes[len(g.sizes)-1] != size {
			g.sizes, g.bytes = append(g.sizes, size), append(g.bytes, b)
			fmt.Fprintf(h.log, "  %-22s %9d  output %.1f MB\n", name, size, float64(b)/1e6)
			h.siteBytes = append(h.siteBytes, fmt.Sprintf("%s at %s entries: %.1f MB", name, thousands(size), float64(b)/1e6))
		}
		if mode.fresh {
			if err := moveAside(outs[i], h.trash())(); err != nil {
				return nil, err
			}
		}
	}
	return append(rs, skipped...), nil
}

// moveAside returns a setup that renames the previous run's output dir
// into trash instead of deleting it (see above).
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

// trash is where the first builds' outputs are kept until the section ends.
func (h *harness) trash() string { return filepath.Join(h.cfg.work, "out", "trash") }

// settleDeletion waits out the window in which the outputs the section
// has just deleted would slow the next first build, whoever runs it: make
// bench's run with one core busy starts right after this one, and its
// empty-directory builds measured the deletion, not the tools (2.56×
// Hugo after a deletion, 5.82× on a rested disk, the same code). ext4's
// recently_deleted skips an inode freed in the last 60 s, or in the last
// 360 s while its inode table block is dirty; sync cleans the blocks,
// but the next run's own new inodes dirty them again, so a wait of 61 s
// after a sync was not enough (the busy run after it still took 3.9 s
// against 0.8 s quiet): -settle waits the whole 360 s and a second.
func (h *harness) settleDeletion() {
	if h.cfg.settle <= 0 {
		return
	}
	syscall.Sync()
	fmt.Fprintf(h.log, "  waiting %s after deleting the outputs (ext4's recently deleted inodes, see site.go)\n", h.cfg.settle)
	select {
	case <-h.ctx.Done():
	case <-time.After(h.cfg.settle):
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
