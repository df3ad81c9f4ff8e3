package serve

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/internal/corpustest"
	"github.com/masrl/masrl/internal/synth"
	"github.com/masrl/masrl/site"
)

// BenchmarkServeEdit is benchrun's live section in one process, where a
// profiler sees it: masrl serve (its watcher, builds and handler) on a
// corpus, one title of the middle row edited per iteration (the file
// written beside papers.csv untimed, then renamed over it), timed until
// the handler serves the row's entry page with the new title, then the
// rest of the rebuild waited for: the time per iteration is not the
// measure, the reported median-ms is. The corpus is
// MASRL_SERVE_CORPUS (copied; `go run ./cmd/synth corpus -entries 100000
// -out DIR -from ../shared/corpus`), else 10,000 synthetic entries;
// MASRL_SERVE_CPUPROFILE names a CPU profile of the timed edits alone
// (bench/profile/serve-edit.md). It reports the median edit and serve's
// own "showing" times. It makes MASRL_SERVE_EDITS timed edits (5) in
// one call whatever b.N is: run it with -benchtime 1x, so that the
// corpus and its first builds are made once.
func BenchmarkServeEdit(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "corpus")
	if from := os.Getenv("MASRL_SERVE_CORPUS"); from != "" {
		dir = corpustest.CopyCorpus(b, from)
	} else if err := synth.WriteCorpusFrom(corpustest.Dir(b), dir, synth.CorpusOptions{Entries: 10000, Exclusions: 200, Seed: 23}); err != nil {
		b.Fatal(err)
	}
	papers := filepath.Join(dir, corpus.PapersFile)
	c, err := corpus.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	key, entries := c.Papers[len(c.Papers)/2].Key, len(c.Papers)
	c = nil
	out := filepath.Join(b.TempDir(), "public")
	log := &lockedBuffer{}
	s := New(Options{
		Corpus: dir, Out: out, Log: log,
		Site: func() (site.Options, error) {
			return site.ListOptions(dir, "", nil, site.Options{Out: out, WithClaims: true})
		},
	})
	s.Rebuild()
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(done)
		s.Watch(ctx)
	}()
	defer func() { cancel(); <-done }()
	<-s.listening // as Run does: the second build's window heard whole
	s.RebuildQuietly()
	page := "/papers/" + key + "/"
	served := func(want string) bool {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", page, nil))
		return bytes.Contains(rec.Body.Bytes(), []byte(want))
	}
	served("") // visited: the next builds render it first
	builds := func() int { return strings.Count(log.String(), "\nbuilt ") }
	var times []time.Duration
	edit := func(title string, timed bool) {
		raw, err := os.ReadFile(papers)
		if err != nil {
			b.Fatal(err)
		}
		edited, err := synth.EditTitle(raw, key, title)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(papers+".tmp", edited, 0o644); err != nil {
			b.Fatal(err)
		}
		before := builds()
		time.Sleep(50 * time.Millisecond) // the .tmp file's events settled
		start := time.Now()
		if err := os.Rename(papers+".tmp", papers); err != nil {
			b.Fatal(err)
		}
		for !served(title) {
			time.Sleep(time.Millisecond)
		}
		if timed {
			times = append(times, time.Since(start))
		}
		for builds() == before {
			time.Sleep(5 * time.Millisecond)
		}
	}
	edit("Untimed live edit of the benchmark", false)
	if name := os.Getenv("MASRL_SERVE_CPUPROFILE"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	edits := 5
	if v, err := strconv.Atoi(os.Getenv("MASRL_SERVE_EDITS")); err == nil && v > 0 {
		edits = v
	}
	for n := range edits {
		edit(fmt.Sprintf("Live edit %d of the benchmark", n+1), true)
		fmt.Fprintf(os.Stderr, "edit %d: %s\n", n+1, times[n])
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "median-ms")
	var shown []float64
	for _, m := range showing.FindAllStringSubmatch(log.String(), -1) {
		if d, err := time.ParseDuration(m[1]); err == nil {
			shown = append(shown, float64(d)/float64(time.Millisecond))
		}
	}
	if len(shown) > len(times) {
		shown = shown[len(shown)-len(times):]
	}
	slices.Sort(shown)
	if len(shown) > 0 {
		b.ReportMetric(shown[len(shown)/2], "shown-ms")
	}
	b.Logf("%d entries: edits %v; serve showed the page after %s ms", entries, times, fmt.Sprint(shown))
}

// showing is serve's log line of the early pages, with their time.
var showing = regexp.MustCompile(`showing .* after ([0-9.]+[mµn]?s),`)

// lockedBuffer is a log the server writes from its builds while the
// benchmark reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return "\n" + l.b.String()
}
