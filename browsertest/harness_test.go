// Package browsertest drives Debian's Chromium headless against the built
// site served on 127.0.0.1 and fails on anything a reader would notice: a
// console error, an uncaught exception, a failed request, a request to any
// host but the local server, a chart that did not draw, a search that
// leaves the wrong rows, a serious accessibility violation.
//
// The tests skip when the site has not been built or Chromium is missing,
// unless MASRL_BROWSER is set (make test sets it): then they fail loudly.
//
// The tests share one Chromium, each in a browser context of its own
// (suite_test.go), and run in parallel (parallel, browserParallel at a
// time), since most of their time is spent waiting on the browser,
// Lighthouse or the Nu checker. The tests that measure a time
// (TestViewerOpenTime, and the latency tests asked for by environment
// variable) do not: they run alone, before the others start.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumFlags are the flags the browser runs with, and no others (besides
// chromedp's own --remote-debugging-port=0 and the fresh --user-data-dir).
// The machine has no internet: without the background-networking flags
// Chromium keeps trying Google's hosts, which would drown the request log
// and slow every start. DEVELOPERS.md explains each flag.
var chromiumFlags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
}

// chromiumPath is Debian's Chromium; MASRL_CHROMIUM overrides it.
func chromiumPath() string {
	if p := os.Getenv("MASRL_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// required reports whether missing prerequisites must fail the test rather
// than skip it.
func required() bool { return os.Getenv("MASRL_BROWSER") != "" }

// need skips or fails the test for a missing prerequisite.
func need(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if required() {
		t.Fatalf("%s (MASRL_BROWSER is set, so this is an error)", msg)
	}
	t.Skipf("%s; set MASRL_BROWSER=1 to make this an error", msg)
}

// repoRoot is the module root: this package sits one level below it.
func repoRoot(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// publicDir is the built site: MASRL_PUBLIC, or public/ at the module root.
func publicDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MASRL_PUBLIC")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "public")
	}
	_, err := os.Stat(filepath.Join(dir, "index.html"))
	need(t, err == nil, "site not built: %v (run make site)", err)
	return dir
}

// browser is one Chromium process shared by the subtests of a test.
type browser struct {
	ctx   context.Context
	base  string     // the local server's root URL, with a trailing slash
	host  string     // host:port of the local server
	index *indexGate // holds the search index back while a test asks
}

// indexGate holds the responses for the search index (search-index.json)
// while it is closed, so that a test can type into the papers page before
// the index has arrived, deterministically, and then let it through.
type indexGate struct {
	mu   sync.Mutex
	wait chan struct{} // nil while open
}

// hold closes the gate: requests for the index wait until release.
func (g *indexGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.wait == nil {
		g.wait = make(chan struct{})
	}
}

// release opens the gate and lets the waiting requests through.
func (g *indexGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.wait != nil {
		close(g.wait)
		g.wait = nil
	}
}

// wrap holds requests for the index while the gate is closed.
func (g *indexGate) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/search-index.json") {
			g.mu.Lock()
			wait := g.wait
			g.mu.Unlock()
			if wait != nil {
				select {
				case <-wait:
				case <-r.Context().Done():
					return
				}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// startBrowser serves dir on 127.0.0.1 and gives the test a browser for
// it (startBrowserAt). Both stop when the test ends.
func startBrowser(t *testing.T, dir string) *browser {
	t.Helper()
	path := chromiumPath()
	_, err := exec.LookPath(path)
	need(t, err == nil, "chromium not found at %s (run make chromium)", path)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gate := &indexGate{}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: noCache(gate.wrap(http.FileServer(http.Dir(dir))))}}
	srv.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(gate.release) // before srv.Close, which waits for held requests
	b := startBrowserAt(t, srv.URL)
	b.index = gate
	return b
}

// startBrowserAt gives the test a browser for the server at base
// (http://host:port): a browser context of its own in the package's one
// Chromium (sharedChromium), as isolated from the other tests' as a fresh
// profile (no cookies, storage or cache in common), whose tabs each open
// in a window of their own, so that none is a hidden background tab. It
// is disposed of when the test ends.
func startBrowserAt(t *testing.T, base string) *browser {
	t.Helper()
	path := chromiumPath()
	_, err := exec.LookPath(path)
	need(t, err == nil, "chromium not found at %s (run make chromium)", path)
	root, err := suite.chromium()
	if err != nil {
		t.Fatalf("starting chromium %s (MASRL_CHROMIUM): %v", path, err)
	}
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // creates the browser context and its first tab
		t.Fatalf("opening a browser context: %v", err)
	}
	u, _ := url.Parse(base)
	return &browser{ctx: ctx, base: base + "/", host: u.Host, index: &indexGate{}}
}

// noCache keeps every load honest: a test that reloads must hit the server.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// page is one tab with a record of everything that went wrong in it.
type page struct {
	ctx    context.Context
	cancel context.CancelFunc
	b      *browser

	mu       sync.Mutex
	problems []string
	requests map[network.RequestID]string
	bytes    map[string]int64 // URL -> encoded bytes received
}

// newPage opens a tab that records console errors, exceptions, failed
// requests, HTTP errors and requests to hosts other than the local server.
func (b *browser) newPage(t *testing.T) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &page{ctx: ctx, cancel: cancel, b: b, requests: map[network.RequestID]string{}, bytes: map[string]int64{}}
	if err := chromedp.Do(ctx); err != nil { // opens the tab; enables the log and network domains
		t.Fatalf("opening a tab: %v", err)
	}
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return p
}

func (p *page) addf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

func (p *page) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			p.addf("console.%s: %s", ev.Type, strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		p.addf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber, msg)
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError {
			p.addf("browser log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		p.mu.Lock()
		p.requests[ev.RequestID] = ev.Request.URL
		p.mu.Unlock()
		if !p.b.local(ev.Request.URL) {
			p.addf("request leaves localhost: %s", ev.Request.URL)
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			p.addf("HTTP %d for %s", int(ev.Response.Status), ev.Response.URL)
		}
	case *network.EventLoadingFailed:
		p.mu.Lock()
		u := p.requests[ev.RequestID]
		p.mu.Unlock()
		p.addf("request failed: %s: %s", u, ev.ErrorText)
	case *network.EventLoadingFinished:
		p.mu.Lock()
		if u, ok := p.requests[ev.RequestID]; ok {
			p.bytes[u] += int64(ev.EncodedDataLength)
		}
		p.mu.Unlock()
	}
}

// local reports whether a request URL stays on the local server. data: and
// blob: URLs never touch the network.
func (b *browser) local(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return true
	case "http", "https", "ws", "wss":
		return u.Host == b.host
	}
	return false
}

// check fails the test with every problem recorded so far, and clears them.
func (p *page) check(t *testing.T, where string) {
	t.Helper()
	p.mu.Lock()
	probs := slices.Clone(p.problems)
	p.problems = nil
	p.mu.Unlock()
	slices.Sort(probs)
	for _, pr := range slices.Compact(probs) {
		t.Errorf("%s: %s", where, pr)
	}
}

// open navigates to a path under the site root and waits until the page
// and its scripts have settled (network idle is not observable cheaply
// with chromedp; the load event plus ready checks in the tests are).
func (p *page) open(t *testing.T, path string) {
	t.Helper()
	p.mu.Lock()
	p.bytes = map[string]int64{}
	p.mu.Unlock()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.b.base+strings.TrimPrefix(path, "/"))); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	p.waitFor(t, `document.readyState === "complete"`)
}

// eval runs a JavaScript expression and decodes its value into out.
func (p *page) eval(t *testing.T, expr string, out any) {
	t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.80s…: %v", expr, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("evaluating %.80s…: decoding %.200s: %v", expr, raw, err)
	}
}

// untilTestDeadline bounds ctx by the test's deadline (go test's
// -timeout, 30 minutes under make test) less a minute, so that a step
// that never ends fails with its own message before go test's alarm, and
// one that is only slow passes: the tests assert no time, and on a busy
// machine a step may take any time (make test runs browsertest beside
// lint, the Python tests and the WebAssembly rerun, make test-busy
// beside a CPU hog on every core; a fixed 5 minutes for the million-event
// trace failed at load 30 to 45).
func untilTestDeadline(t *testing.T, ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := t.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, d.Add(-time.Minute))
}

// waitFor polls a JavaScript condition until it holds.
func (p *page) waitFor(t *testing.T, cond string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond)))
		if err == nil {
			return
		}
		// A navigation destroys the page's JavaScript context under a
		// running poll ("context", or "Inspected target navigated" when it
		// lands between two polls); poll again in the new page.
		if ctx.Err() != nil || !(strings.Contains(err.Error(), "context") || strings.Contains(err.Error(), "navigated")) {
			t.Fatalf("waiting for %s: %v", cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// weight returns the bytes received for the page's requests, split into
// the chart library and everything else.
func (p *page) weight() (echarts, rest int64, urls []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for u, n := range p.bytes {
		urls = append(urls, u)
		if strings.HasSuffix(u, "/echarts.min.js") {
			echarts += n
		} else {
			rest += n
		}
	}
	slices.Sort(urls)
	return echarts, rest, urls
}
