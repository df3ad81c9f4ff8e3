package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/synth"
)

// The live section measures the loop of a user with the site open in a
// browser: one row edited, the running server rebuilds, the page shows
// the edit. `masrl serve` (fsnotify, an incremental rebuild into the
// output directory) against `hugo server`, Hugo's fastest rebuild. Both
// render the pages visited last first and serve them before the rest of
// the rebuild is done (Hugo's default Fast Render Mode; masrl serve's
// Options.First), and the measured page is one of them. Each tool serves a
// copy of the same entries on 127.0.0.1; the edit is written whole
// (temporary file, then rename, as editors save), the clock starts when
// the rename returns and stops when a GET of the edited entry's page
// returns the new title (polled every 10 ms). That is the rebuild plus
// the watcher's latency; the tools' own rebuild times from their logs
// ("built ... in", "Total in") are shown beside it. Each server is
// started on the entries, allowed its start-up builds, given one
// untimed edit, then timed over -runs edits, one tool after the other
// (servers cannot be alternated run by run).

// liveTool is a server and how to edit its input and read its log.
type liveTool struct {
	name  string
	argv  []string // with PORT for the port
	ready *regexp.Regexp
	// builds is the log line of a finished rebuild, with its time in
	// the first group.
	builds *regexp.Regexp
	// edit writes the input with the title edited beside the file it
	// replaces and returns both names; measureLive renames it.
	edit func(title string) (tmp, file string, err error)
	page string // the edited entry's path
	// warm counts the log lines of builds the server does on its own at
	// start, which the edits must wait for.
	warm int
}

// liveSection measures every live tool at each size in ns, one table
// row per tool and size, with the machine's load average before and
// after each tool's edits (other sessions share the machine), and the
// targets: ≥ 10× each hugo server, and masrl serve's time per edit
// growing by at most 1.5× from the smallest size to the largest.
func (h *harness) liveSection(ns []int) (string, []target, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "One row's title edited, edit to served page (median of %d timed edits after 1 untimed; the page polled every 10 ms):\n\n", h.cfg.runs)
	b.WriteString("| entries | server | median | min | max | load average before → after | whole rebuild by its log, each timed edit |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	var ts []target
	masrlAt := map[int]time.Duration{}
	for _, n := range ns {
		rows, medians, err := h.liveAt(n)
		if err != nil {
			return "", nil, err
		}
		b.WriteString(rows)
		m, ok := medians["masrl serve"]
		if !ok {
			continue
		}
		masrlAt[n] = m
		for name, hm := range medians {
			if name == "masrl serve" {
				continue
			}
			r := float64(hm) / float64(m)
			ts = append(ts, decided(fmt.Sprintf("one-row edit at %s entries served ≥ 10× faster than `%s`", thousands(n), name),
				fmt.Sprintf("%s / %s = %.1f×", ms(hm), ms(m), r), r >= 10))
		}
	}
	slices.SortFunc(ts, func(a, b target) int { return strings.Compare(a.goal, b.goal) })
	if len(ns) > 1 {
		lo, hi := ns[0], ns[len(ns)-1]
		if a, ok := masrlAt[lo]; ok {
			if z, ok := masrlAt[hi]; ok {
				r := float64(z) / float64(a)
				ts = append(ts, decided(fmt.Sprintf("masrl serve's one-row edit grows ≤ 1.5× from %s to %s entries", thousands(lo), thousands(hi)),
					fmt.Sprintf("%s / %s = %.2f×", ms(z), ms(a), r), r <= 1.5))
			}
		}
	}
	return b.String(), ts, nil
}

// liveAt measures the tools on n entries: masrl serve, and hugo server
// (Debian's, and the newest when built) on both skeletons. It returns
// the table rows and each tool's median.
func (h *harness) liveAt(n int) (string, map[string]time.Duration, error) {
	corpusDir, _, err := h.corpusDir(n)
	if err != nil {
		return "", nil, err
	}
	skeletons := [][2]string{{"", h.hugoSkeleton}, {" (plain)", filepath.Join(h.cfg.repo, "bench", "hugo-plain")}}
	hugoDirs := make([]string, len(skeletons))
	for i, sk := range skeletons {
		if hugoDirs[i], err = h.hugoSite(n, corpusDir, sk[1]); err != nil {
			return "", nil, err
		}
	}
	work := filepath.Join(h.cfg.work, "live")
	os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(work)
	c, err := corpus.Load(corpusDir)
	if err != nil {
		return "", nil, err
	}
	key := c.Papers[len(c.Papers)/2].Key

	masrlCorpus := filepath.Join(work, "corpus")
	if err := copyTree(corpusDir, masrlCorpus); err != nil {
		return "", nil, err
	}
	tools := []liveTool{{
		name:   "masrl serve",
		argv:   []string{h.masrl, "serve", "--corpus", masrlCorpus, "--out", filepath.Join(work, "public"), "--addr", "127.0.0.1:PORT"},
		ready:  regexp.MustCompile(`^serving `),
		builds: masrlBuilt,
		edit: func(title string) (string, string, error) {
			return editCSVTitle(filepath.Join(masrlCorpus, corpus.PapersFile), key, title)
		},
		page: "/papers/" + key + "/",
		warm: 2, // the build before serving, and the one that fills the buffer
	}}
	hugos := [][2]string{}
	if p, err := exec.LookPath("hugo"); err == nil {
		hugos = append(hugos, [2]string{"hugo server", p})
	}
	if h.cfg.hugoNewest != "" && fileExists(h.cfg.hugoNewest) {
		hugos = append(hugos, [2]string{"hugo-newest server", h.cfg.hugoNewest})
	}
	for _, hg := range hugos {
		for i, sk := range skeletons {
			name := hg[0] + sk[0]
			site := filepath.Join(work, strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name))
			if err := copyTree(hugoDirs[i], site); err != nil {
				return "", nil, err
			}
			content := filepath.Join(site, "content", "papers", key+".md")
			tools = append(tools, liveTool{
				name: name,
				argv: []string{hg[1], "server", "--source", site, "--bind", "127.0.0.1", "--port", "PORT",
					"--baseURL", "http://127.0.0.1:PORT/", "--appendPort=false", "--disableLiveReload"},
				ready:  regexp.MustCompile(`Web Server is available`),
				builds: regexp.MustCompile(`^Total in ([0-9.]+ ?m?s)`),
				edit:   func(title string) (string, string, error) { return editHugoTitle(content, title) },
				page:   "/papers/" + key + "/",
			})
		}
	}
	var b strings.Builder
	medians := map[string]time.Duration{}
	for _, tl := range tools {
		before := loadText(loadAverage())
		times, logged, err := h.measureLive(tl)
		after := loadText(loadAverage())
		if err != nil {
			fmt.Fprintf(h.log, "%s: %v\n", tl.name, err)
			fmt.Fprintf(&b, "| %s | %s | failed: %s | | | %s → %s | |\n", thousands(n), tl.name, mdEscape(err.Error()), before, after)
			continue
		}
		slices.Sort(times)
		med := times[len(times)/2]
		medians[tl.name] = med
		h.commands = append(h.commands, h.shown(tl.argv)+" (then edits; bench/cmd/benchrun/live.go)")
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s → %s | %s |\n", thousands(n), tl.name, ms(med), ms(times[0]), ms(times[len(times)-1]), before, after, strings.Join(logged, ", "))
	}
	return b.String(), medians, nil
}

// masrlBuilt is masrl serve's log line of a finished build, with its
// time (a Go duration: "967ms", "2.854s", and over a minute "3m34.029s",
// which the 100,000-entry start-up builds take on a loaded machine).
var masrlBuilt = regexp.MustCompile(`^built .* in ([0-9.]+(?:h[0-9.]*)?(?:m[0-9.]*)?[mµn]?s)$`)

// loadAverage is the machine's one-minute load average, from
// /proc/loadavg, or -1 where there is none.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// loadText is a load average as the tables print it.
func loadText(v float64) string {
	if v < 0 {
		return "?"
	}
	return fmt.Sprintf("%.2f", v)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

// measureLive runs one server, edits its input and times each edit until
// the page shows it. It returns the timed edits and the rebuild times
// the server logged for them.
func (h *harness) measureLive(tl liveTool) ([]time.Duration, []string, error) {
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	argv := make([]string, len(tl.argv))
	for i, a := range tl.argv {
		argv[i] = strings.ReplaceAll(a, "PORT", strconv.Itoa(port))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = h.cfg.repo
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		pw.Close()
	}()
	ready := make(chan struct{}, 1)
	builds := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(h.log, "  "+line)
			if tl.ready.MatchString(line) {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
			if m := tl.builds.FindStringSubmatch(line); m != nil {
				builds <- m[1]
			}
		}
	}()
	fmt.Fprintf(h.log, "%s\n", h.shown(argv))
	select {
	case <-ready:
	case <-time.After(h.cfg.timeout):
		return nil, nil, fmt.Errorf("not ready after %s", h.cfg.timeout)
	}
	for range tl.warm {
		if err := waitLine(builds, h.cfg.timeout); err != nil {
			return nil, nil, err
		}
	}
	url := fmt.Sprintf("http://127.0.0.1:%d%s", port, tl.page)
	var times []time.Duration
	var logged []string
	for i := range 1 + h.cfg.runs {
		title := fmt.Sprintf("Live edit %d of the benchmark", i)
		tmp, file, err := tl.edit(title)
		if err != nil {
			return nil, nil, err
		}
		// Making the edit (at 100,000 entries, papers.csv parsed and
		// written again: hundreds of MB) starts this process's garbage
		// collector, whose mark would otherwise run on the machine's
		// two cores while the server makes the page, in the timed
		// window and at the larger size only: it is finished first.
		runtime.GC()
		if err := os.Rename(tmp, file); err != nil {
			return nil, nil, err
		}
		start := time.Now()
		if err := waitServed(url, title, h.cfg.timeout); err != nil {
			return nil, nil, err
		}
		took := time.Since(start)
		var line string
		// The page is shown before the rest of the rebuild is done; the
		// next edit waits for the rebuild's log line, or it would be
		// timed from behind the rest (at 100,000 entries the rest took
		// longer than the 5 s this waited until issue 39).
		select {
		case line = <-builds:
		case <-time.After(h.cfg.timeout):
		}
		if i >= 1 {
			times = append(times, took)
			logged = append(logged, line)
		}
	}
	return times, logged, nil
}

func waitLine(c chan string, timeout time.Duration) error {
	select {
	case <-c:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("no build reported after %s", timeout)
	}
}

// waitServed polls url until its body holds want.
func waitServed(url, want string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: timeout}
	for time.Now().Before(deadline) {
		resp, err := client.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(want)) {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%s did not show %q within %s", url, want, timeout)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// editCSVTitle writes papers.csv with key's title set, whole, to a
// temporary file beside it (an editor's save, before its rename).
func editCSVTitle(name, key, title string) (tmp, file string, err error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return "", "", err
	}
	b, err := synth.EditTitle(raw, key, title)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	tmp = name + ".tmp"
	return tmp, name, os.WriteFile(tmp, b, 0o644)
}

// editHugoTitle writes a Hugo content file written by writeHugoSite
// with its title set to a temporary file beside it.
func editHugoTitle(name, title string) (tmp, file string, err error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return "", "", err
	}
	var p hugoPage
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", "", fmt.Errorf("%s: %w", name, err)
	}
	p.Title = title
	tmp = name + ".tmp"
	return tmp, name, writeJSONPage(tmp, p)
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
