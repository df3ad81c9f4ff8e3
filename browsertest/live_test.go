package browsertest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
)

// TestServeLiveReload runs masrl serve on a copy of the corpus, opens an
// entry page in Chromium, edits the entry's title in papers.csv and
// waits until the open page shows the new title: the server saw the
// edit, rebuilt and told the page to reload. Nothing reloads the page
// but the script masrl serve adds.
func TestServeLiveReload(t *testing.T) {
	parallel(t)
	_, err := exec.LookPath(chromiumPath())
	need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
	dir := t.TempDir()
	corpusDir := corpustest.CopyCorpus(t, corpustest.Dir(t))
	base, _ := startServe(t, corpusDir, filepath.Join(dir, "public"))
	b := startBrowserAt(t, base)
	p := b.newPage(t)
	papers := filepath.Join(corpusDir, corpus.PapersFile)
	key := firstKey(t, papers)
	p.open(t, "papers/"+key+"/")
	p.waitFor(t, `document.querySelector('script[src="/_masrl/live.js"]') !== null`)
	for i := range 2 {
		title := fmt.Sprintf("Title edited live %d", i)
		setTitle(t, papers, key, title)
		p.waitFor(t, fmt.Sprintf(`document.readyState === "complete" && document.querySelector("h1").textContent.includes(%q)`, title))
	}
	// Closing the event stream to reload ends its request: Chromium
	// reports that as aborted, which is the script's doing, not a fault.
	p.mu.Lock()
	p.problems = slices.DeleteFunc(p.problems, func(s string) bool {
		return strings.HasSuffix(s, "/_masrl/events: net::ERR_ABORTED")
	})
	p.mu.Unlock()
	p.check(t, "entry page reloaded live")
}

// TestLiveReloadLatency measures, on synthetic corpora of the sizes
// MASRL_RELOAD_SIZES lists (e.g. "10000"), the time from writing
// papers.csv to the open entry page showing the edit in Chromium: the
// write's wall clock against the reloaded page's first contentful paint
// (performance.timeOrigin plus the paint entry's time, the same clock).
// It reports the median and the range, and the server's own build times;
// it asserts only that the edit shows (BENCHMARKS.md records the times).
func TestLiveReloadLatency(t *testing.T) {
	eachSynthSize(t, "MASRL_RELOAD_SIZES", "10000", func(t *testing.T, n int, dir, corpusDir string) {
		_, err := exec.LookPath(chromiumPath())
		need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
		base, log := startServe(t, corpusDir, filepath.Join(dir, "public"))
		// The server builds a second time at start, filling the
		// build buffer; wait for it, so that every edit measured is
		// an incremental rebuild.
		log.waitFor(t, 2)
		b := startBrowserAt(t, base)
		p := b.newPage(t)
		papers := filepath.Join(corpusDir, corpus.PapersFile)
		key := firstKey(t, papers)
		p.open(t, "papers/"+key+"/")
		var times []float64
		for i := range 7 {
			title := fmt.Sprintf("Title edited live %d", i)
			// The clock starts when the edit is in place, as an editor
			// saves: written whole, then renamed over papers.csv.
			setTitle(t, papers, key, title)
			written := float64(time.Now().UnixNano()) / 1e6
			p.waitFor(t, fmt.Sprintf(`document.querySelector("h1") !== null && document.querySelector("h1").textContent.includes(%q) && performance.getEntriesByName("first-contentful-paint").length > 0`, title))
			var painted float64
			p.eval(t, `performance.timeOrigin + performance.getEntriesByName("first-contentful-paint")[0].startTime`, &painted)
			times = append(times, painted-written)
			log.waitFor(t, 3+i)
		}
		slices.Sort(times)
		t.Logf("%d entries: edit of papers.csv to the page painted with it: median %.0f ms, min %.0f, max %.0f (%d edits); server: %s; the open page shown after %s",
			n, times[len(times)/2], times[0], times[len(times)-1], len(times), strings.Join(log.builds(), "; "), strings.Join(log.shown(), ", "))
	})
}

// earlyLine is serve's line for the visited pages shown early, with the
// time since the build started.
var earlyLine = regexp.MustCompile(`^showing .* after ([0-9.]+m?s),`)

// serveLog collects masrl serve's "built ..." lines, and the times it
// showed the visited pages before the rest of the build ("showing ...").
type serveLog struct {
	lines chan string
	seen  []string
	mu    sync.Mutex
	early []string
}

// shown returns the times of the "showing ..." lines so far.
func (l *serveLog) shown() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.early)
}

// waitFor waits until the server has reported n builds.
func (l *serveLog) waitFor(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(5 * time.Minute)
	for len(l.seen) < n {
		select {
		case line, ok := <-l.lines:
			if !ok {
				t.Fatalf("masrl serve stopped after %d builds", len(l.seen))
			}
			l.seen = append(l.seen, line)
		case <-timeout:
			t.Fatalf("masrl serve reported %d builds, want %d", len(l.seen), n)
		}
	}
}

func (l *serveLog) builds() []string { return l.seen }

// startServe builds masrl and runs masrl serve on corpusDir, writing into
// out, on a free port; it returns the server's root URL once the first
// build is served. The server is stopped when the test ends.
func startServe(t *testing.T, corpusDir, out string) (string, *serveLog) {
	t.Helper()
	bin := buildMasrl(t)
	cmd := exec.Command(bin, "serve", "--corpus", corpusDir, "--out", out, "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	log := &serveLog{lines: make(chan string, 64)}
	go func() {
		defer close(log.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "built ") {
				log.lines <- line
			}
			if m := earlyLine.FindStringSubmatch(line); m != nil {
				log.mu.Lock()
				log.early = append(log.early, m[1])
				log.mu.Unlock()
			}
		}
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("masrl serve: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	// "serving OUT at http://ADDR/ (Ctrl-C to stop)"
	_, rest, ok := strings.Cut(line, " at ")
	u, _, _ := strings.Cut(rest, " ")
	if !ok || !strings.HasPrefix(u, "http://") {
		t.Fatalf("masrl serve said %q", line)
	}
	return strings.TrimSuffix(u, "/"), log
}

// firstKey returns the key of the first row of papers.csv.
func firstKey(t *testing.T, papers string) string {
	t.Helper()
	rows := corpustest.ReadCSV(t, papers)
	if len(rows) < 2 {
		t.Fatalf("%s has no rows", papers)
	}
	return rows[1][0]
}

// setTitle rewrites papers.csv with a new title for key: written into
// a temporary file, then renamed over it.
func setTitle(t *testing.T, papers, key, title string) {
	t.Helper()
	raw, err := os.ReadFile(papers)
	if err != nil {
		t.Fatal(err)
	}
	b, err := synth.EditTitle(raw, key, title)
	if err != nil {
		t.Fatal(err)
	}
	tmp := papers + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, papers); err != nil {
		t.Fatal(err)
	}
}
