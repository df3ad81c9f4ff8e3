package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
}

// browserParallel is how many of the package's tests run at once unless
// go test's -parallel says otherwise. Its default, GOMAXPROCS, is right
// for tests that compute; these mostly wait (on Chromium, Lighthouse,
// the Nu checker, masrl serve), and with 2 at a time on 2 cores the
// longest (Lighthouse, the million-event viewer, the 10,000-entry papers
// site) started last and ran on alone.
const browserParallel = 4

// TestMain runs the tests, browserParallel at a time unless -parallel is
// given, then stops the shared Chromium and removes the shared directory,
// whatever the tests' outcome.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(max(browserParallel, runtime.GOMAXPROCS(0)))); err != nil {
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
// those that run it as a user would, and returns its path.
func buildMasrl(t *testing.T) string {
	t.Helper()
	suite.masrlOnce.Do(func() {
		bin := filepath.Join(suite.dir, "masrl")
		build := exec.Command("go", "build", "-o", bin, "./cmd/masrl")
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
