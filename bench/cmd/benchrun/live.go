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
// returns the new title (polled every 2 ms). That is the rebuild plus
// the watcher's latency; the tools' own rebuild times from their logs
// ("built ... in", "Total in") are shown beside it. Each server is
// started on the entries, allowed its start-up builds, given two
// untimed edits, then timed over -runs edits, one tool after the other
// (servers cannot be alternated run by run).

// liveTool is a server and how to edit its input and read its log.
type liveTool struct {
	name  string
	argv  []string // with PORT for the port
	ready *regexp.Regexp
	// builds is the log line of a finished rebuild, with its time in
	// the first group.
	builds *regexp.Regexp
	edit   func(title string) error
	page   string // the edited entry's path
	// warm counts the log lines of builds the server does on its own at
	// start, which the edits must wait for.
	warm int
}

func (h *harness) liveSection(n int) (string, []target, error) {
	corpusDir, _, err := h.corpusDir(n)
	if err != nil {
		return "", nil, err
	}
	hugoDir, err := h.hugoSite(n, corpusDir)
	if err != nil {
		return "", nil, err
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
		builds: regexp.MustCompile(`^built .* in ([0-9.]+m?s)$`),
		edit: func(title string) error {
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
		site := filepath.Join(work, strings.ReplaceAll(hg[0], " ", "-"))
		if err := copyTree(hugoDir, site); err != nil {
			return "", nil, err
		}
		content := filepath.Join(site, "content", "papers", key+".md")
		tools = append(tools, liveTool{
			name: hg[0],
			argv: []string{hg[1], "server", "--source", site, "--bind", "127.0.0.1", "--port", "PORT",
				"--baseURL", "http://127.0.0.1:PORT/", "--appendPort=false", "--disableLiveReload"},
			ready:  regexp.MustCompile(`Web Server is available`),
			builds: regexp.MustCompile(`^Total in ([0-9.]+ ?m?s)`),
			edit:   func(title string) error { return editHugoTitle(content, title) },
			page:   "/papers/" + key + "/",
		})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "One row edited at %s entries, edit to served page (%d timed edits after 2 untimed):\n\n", thousands(n), h.cfg.runs)
	b.WriteString("| server | median | min | max | whole rebuild by its log, each timed edit |\n| --- | --- | --- | --- | --- |\n")
	medians := map[string]time.Duration{}
	for _, tl := range tools {
		times, logged, err := h.measureLive(tl)
		if err != nil {
			fmt.Fprintf(h.log, "%s: %v\n", tl.name, err)
			fmt.Fprintf(&b, "| %s | failed: %s | | | |\n", tl.name, mdEscape(err.Error()))
			continue
		}
		slices.Sort(times)
		med := times[len(times)/2]
		medians[tl.name] = med
		h.commands = append(h.commands, h.shown(tl.argv)+" (then edits; bench/cmd/benchrun/live.go)")
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", tl.name, ms(med), ms(times[0]), ms(times[len(times)-1]), strings.Join(logged, ", "))
	}
	var ts []target
	if m, ok := medians["masrl serve"]; ok {
		for _, hg := range hugos {
			if hm, ok := medians[hg[0]]; ok {
				r := float64(hm) / float64(m)
				ts = append(ts, decided(fmt.Sprintf("one-row edit at %s entries served ≥ 10× faster than `%s`", thousands(n), hg[0]),
					fmt.Sprintf("%s / %s = %.1f×", ms(hm), ms(m), r), r >= 10))
			}
		}
	}
	return b.String(), ts, nil
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
	for i := range 2 + h.cfg.runs {
		title := fmt.Sprintf("Live edit %d of the benchmark", i)
		if err := tl.edit(title); err != nil {
			return nil, nil, err
		}
		start := time.Now()
		if err := waitServed(url, title, h.cfg.timeout); err != nil {
			return nil, nil, err
		}
		took := time.Since(start)
		var line string
		select { // the log line may follow the page by a moment
		case line = <-builds:
		case <-time.After(5 * time.Second):
		}
		if i >= 2 {
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
		time.Sleep(2 * time.Millisecond)
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

// replaceFile writes b to name through a temporary file and a rename.
func replaceFile(name string, b []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// editCSVTitle sets the title of key in papers.csv, written whole.
func editCSVTitle(name, key, title string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	b, err := synth.EditTitle(raw, key, title)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return replaceFile(name, b)
}

// editHugoTitle sets the title of a Hugo content file written by
// writeHugoSite.
func editHugoTitle(name, title string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var p hugoPage
	if err := json.Unmarshal(raw, &p); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	p.Title = title
	tmp := name + ".tmp"
	if err := writeJSONPage(tmp, p); err != nil {
		return err
	}
	return os.Rename(tmp, name)
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
