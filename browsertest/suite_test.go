package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// suite is what the package's tests share, each made once, on first use,
// and released by TestMain after the last test: the one Chromium process
// the tests open their browser contexts in (starting one per test cost a
// second or two of both cores each, a dozen times), and the masrl binary
// the tests that run it as a user does build (a link of the whole command
// each time otherwise). It is the package's only state; the tests that
// share it run in parallel, so each part is guarded by its sync.Once.
var suite shared

// shared holds the suite's parts and the temporary directory they live in.
type shared struct {
	dir string // made by TestMain, removed after the last test

	chromiumOnce sync.Once
	chromiumCtx  context.Context
	chromiumErr  error
	stop         []func()

	masrlOnce sync.Once
	masrlBin  string
	masrlErr  error

	slots *gate // made by TestMain
}

// parallel marks the test parallel and waits for one of the suite's
// slots, which it gives back when the test and its cleanups are done.
func parallel(t *testing.T) {
	t.Helper()
	t.Parallel()
	rank := slices.Index(slowFirst, t.Name())
	if rank < 0 {
		rank = len(slowFirst)
	}
	suite.slots.acquire(rank)
	t.Cleanup(suite.slots.release) // registered first, so run last
}

// gate hands out a fixed number of slots, to the waiting test of the
// lowest rank first.
type gate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	free    int
	waiting []int // the ranks of the tests waiting
}

func (g *gate) acquire(rank int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting = append(g.waiting, rank)
	for g.free == 0 || slices.Min(g.waiting) < rank {
		g.cond.Wait()
	}
	g.waiting = slices.Delete(g.waiting, slices.Index(g.waiting, rank), slices.Index(g.waiting, rank)+1)
	g.free--
	g.cond.Broadcast() // a slot may still be free for the next rank
}

func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.free++
	g.cond.Broadcast()
}

// browserParallel is how many of the package's tests run at once unless
// go test's -parallel says otherwise. Its default, GOMAXPROCS, is right
// for tests that compute; these mostly wait (on Chromium, Lighthouse,
// the Nu checker, masrl serve).
const browserParallel = 4

// slowFirst names the longest tests, longest first (about 2 to 3 minutes
// each on a busy machine, the others under one): when several tests wait
// for a slot, these get it first, so that none of them starts last and
// runs on alone while the cores idle. go test itself resumes parallel
// tests in no set order.
var slowFirst = []string{"TestLighthouse", "TestViewerFile", "TestPapersPageBounded", "TestSite", "TestAgentsListSite", "TestViewerLite"}

// TestMain runs the tests, browserParallel at a time unless -parallel is
// given (suite.slots; go test's own limit is lifted so as not to choose
// for it), then stops the shared Chromium and removes the shared
// directory, whatever the tests' outcome.
func TestMain(m *testing.M) {
	flag.Parse()
	n := max(browserParallel, runtime.GOMAXPROCS(0))
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			n, _ = strconv.Atoi(f.Value.String())
		}
	})
	suite.slots = &gate{free: max(n, 1)}
	suite.slots.cond = sync.NewCond(&suite.slots.mu)
	if n >= 1 { // else go test refuses the -parallel given, as it should
		if err := flag.Set("test.parallel", "1000"); err != nil {
			fmt.Fprintln(os.Stderr, "browsertest:", err)
			os.Exit(2)
		}
	}
	dir, err := os.MkdirTemp("", "masrl-browsertest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "browsertest:", err)
		os.Exit(2)
	}
	suite.dir = dir
	code := m.Run()
	for i := len(suite.stop) - 1; i >= 0; i-- {
		suite.stop[i]()
	}
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(os.Stderr, "browsertest:", err)
	}
	os.Exit(code)
}

// chromium starts the shared Chromium, with exactly chromiumFlags and a
// fresh profile in the suite's directory, and returns the context of its
// first tab, from which each test makes a browser context of its own.
func (s *shared) chromium() (context.Context, error) {
	s.chromiumOnce.Do(func() {
		profile := filepath.Join(s.dir, "chromium-profile")
		opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(chromiumPath()), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900)}
		for _, f := range chromiumFlags {
			opts = append(opts, chromedp.Flag(f, true))
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		s.stop = append(s.stop, cancelAlloc, cancel) // run in reverse: the browser, then its process
		if err := chromedp.Do(ctx); err != nil {     // starts the browser
			s.chromiumErr = err
			return
		}
		s.chromiumCtx = ctx
	})
	return s.chromiumCtx, s.chromiumErr
}

// buildMasrl builds the masrl command once for the package's tests, for
// those that run it as a user would, and returns its path. It is built
// as the releases and the wheel build it (no symbol table or DWARF, no
// VCS stamp; CGO_ENABLED and -trimpath come from make), so that under
// make test, where the wheel's build linked the same binary, the go
// command finds it in its cache instead of linking it again.
func buildMasrl(t *testing.T) string {
	t.Helper()
	suite.masrlOnce.Do(func() {
		bin := filepath.Join(suite.dir, "masrl")
		build := exec.Command("go", "build", "-buildvcs=false", "-ldflags=-s -w", "-o", bin, "./cmd/masrl")
		build.Dir = repoRoot(t)
		if b, err := build.CombinedOutput(); err != nil {
			suite.masrlErr = fmt.Errorf("go build: %v\n%s", err, b)
			return
		}
		suite.masrlBin = bin
	})
	if suite.masrlErr != nil {
		t.Fatal(suite.masrlErr)
	}
	return suite.masrlBin
}
