package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/site"
)

// keystrokeJS types one more character into the papers search box and
// resolves with the milliseconds until the results are painted: the status
// line is rewritten by every update, and a frame after that mutation the
// list has been laid out and drawn.
const keystrokeJS = `new Promise(resolve => {
  const box = document.getElementById("paper-search-q");
  const status = document.getElementById("search-status");
  const t0 = performance.now();
  const mo = new MutationObserver(() => {
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  });
  mo.observe(status, {childList: true, characterData: true, subtree: true});
  box.value = %q;
  box.dispatchEvent(new Event("input", {bubbles: true}));
})`

// TestSearchLatency measures keystroke-to-results on the papers page of
// synthetic corpora (cmd/synth) of the sizes MASRL_SEARCH_SIZES lists,
// e.g. "10000,100000", and the weight of the largest HTML page. It
// reports; it asserts only that search works, since times depend on the
// machine (BENCHMARKS.md records them with the load they were taken
// under). Without the variable it skips: each size builds a site.
func TestSearchLatency(t *testing.T) {
	eachSynthSize(t, "MASRL_SEARCH_SIZES", "10000,100000", func(t *testing.T, n int, dir, corpusDir string) {
		pub := filepath.Join(dir, "public")
		ck, err := corpus.Open(corpusDir, nil, data.SurveyProfile)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := site.Build(ck, site.Options{Out: pub}); err != nil {
			t.Fatalf("build: %v", err)
		}
		largest, largestPage := largestHTML(t, pub)
		b := startBrowser(t, pub)
		p := b.newPage(t)
		start := time.Now()
		p.open(t, "papers/")
		p.waitFor(t, searchReadyJS)
		ready := time.Since(start)
		var times []float64
		for _, q := range []string{"a", "ag", "age", "agen", "agent", "agent ", "agent l", "agent le", "agent lea", "agent lear"} {
			var ms float64
			p.eval(t, fmt.Sprintf(keystrokeJS, q), &ms)
			times = append(times, ms)
		}
		var status string
		p.eval(t, `document.getElementById("search-status").textContent`, &status)
		if !strings.HasPrefix(status, "Showing ") {
			t.Errorf("search status after typing: %q", status)
		}
		slices.Sort(times)
		t.Logf("%d entries: largest page %s %.1f MB; papers/ ready in %v; keystroke to results: median %.0f ms, max %.0f ms (%d keystrokes); %s",
			n, largestPage, float64(largest)/1e6, ready.Round(time.Millisecond), times[len(times)/2], times[len(times)-1], len(times), status)
	})
}

// eachSynthSize runs run once for every size the environment variable
// env lists (e.g. example, "10000,100000"), as a subtest named by the
// size, with a synthetic corpus of that many entries (writeSynthCorpus) in corpusDir, inside the subtest's
// temporary directory dir. Without the variable the test skips: these
// are measurements, each of which builds a large site.
func eachSynthSize(t *testing.T, env, example string, run func(t *testing.T, n int, dir, corpusDir string)) {
	t.Helper()
	sizes := os.Getenv(env)
	if sizes == "" {
		t.Skipf("set %s=%s to measure on synthetic corpora", env, example)
	}
	for s := range strings.SplitSeq(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			t.Fatalf("%s: %q is not a size", env, s)
		}
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			dir := t.TempDir()
			corpusDir := filepath.Join(dir, "corpus")
			writeSynthCorpus(t, n, corpusDir)
			run(t, n, dir, corpusDir)
		})
	}
}

// largestHTML returns the size and path of the largest HTML page of dir.
func largestHTML(t *testing.T, dir string) (int64, string) {
	t.Helper()
	var size int64
	var page string
	for _, p := range sitePages(t, dir) {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > size {
			size, page = fi.Size(), p
		}
	}
	return size, page
}

// writeSynthCorpus writes into dir a synthetic corpus of n entries learned
// from the real one, as go run ./cmd/synth corpus -entries n -seed 1 does
// (with its default of 32 exclusions), but in the test's own process: no
// go command to start and no synth binary to build and link.
func writeSynthCorpus(t *testing.T, n int, dir string) {
	t.Helper()
	if err := synth.WriteCorpusFrom(corpustest.Dir(t), dir, synth.CorpusOptions{Entries: n, Exclusions: 32, Seed: 1}); err != nil {
		t.Fatalf("synth: %v", err)
	}
}
