package browsertest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// lighthouseCategories lists the categories Lighthouse runs, in report
// order. The performance category runs for its audits; its score is a
// timing and is only reported (see lighthousePerformance).
var lighthouseCategories = []string{"performance", "accessibility", "best-practices", "seo"}

// lighthouseFull are the categories whose score must be 100: each is a
// fact about the page, the same on a busy machine as on a quiet one.
var lighthouseFull = []string{"accessibility", "best-practices", "seo"}

// lighthouseBudget is what one page type may cost as Lighthouse loads it
// (mobile viewport, gzip-compressed, whatever the first screen draws):
// bytes received in all and requests made. Each budget leaves about a
// third of headroom over what the page cost when the budgets were set
// (DEVELOPERS.md gives the figures); a page that outgrows it fails, and
// the budget moves only with a reason.
type lighthouseBudget struct {
	bytes    float64
	requests int
}

// lighthouseBudgets are the budgets by page name (lighthousePages). No
// page draws a chart on its first screen, so none loads the chart library
// (TestSite checks that it loads when a chart comes near).
var lighthouseBudgets = map[string]lighthouseBudget{
	"home":     {bytes: 20 << 10, requests: 7},
	"papers":   {bytes: 30 << 10, requests: 7},
	"coverage": {bytes: 18 << 10, requests: 7},
	"entry":    {bytes: 10 << 10, requests: 6},
	"term":     {bytes: 8 << 10, requests: 5},
	// The traces page loads the validator's scripts and the viewer's
	// style sheet; the viewer's script (about 20 KB compressed) only once
	// a file is chosen, which Lighthouse does not do. Measured 22,113 B in
	// 6 requests (26 Nov 2026); the budget leaves a fifth.
	"traces": {bytes: 26 << 10, requests: 7},
}

// unusedJSBudget is the most JavaScript, in bytes as received, a page may
// load and not run (Lighthouse's unused-javascript, which counts bytes
// from Chromium's code coverage, not time).
const unusedJSBudget = 20 << 10

// gzipServer serves dir on 127.0.0.1 as a static host does: compressed
// when the client accepts gzip.
func gzipServer(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		z := gzip.NewWriter(w)
		defer z.Close()
		files.ServeHTTP(gzipWriter{ResponseWriter: w, z: z}, r)
	})
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// gzipWriter compresses a response; the file server's Content-Length is
// that of the uncompressed file, so it is dropped.
type gzipWriter struct {
	http.ResponseWriter
	z *gzip.Writer
}

func (g gzipWriter) Write(b []byte) (int, error) { return g.z.Write(b) }

func (g gzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

// lighthouseReport is the part of Lighthouse's JSON report the test reads.
type lighthouseReport struct {
	Categories map[string]struct {
		Score     *float64 `json:"score"`
		AuditRefs []struct {
			ID     string  `json:"id"`
			Weight float64 `json:"weight"`
		} `json:"auditRefs"`
	} `json:"categories"`
	Audits       map[string]lighthouseAudit `json:"audits"`
	RuntimeError *struct {
		Code, Message string
	} `json:"runtimeError"`
}

// lighthouseAudit is one audit's result: its score, the value it measured
// and, for the audits that list resources, the resources.
type lighthouseAudit struct {
	Title            string   `json:"title"`
	Score            *float64 `json:"score"`
	ScoreDisplayMode string   `json:"scoreDisplayMode"`
	DisplayValue     string   `json:"displayValue"`
	NumericValue     float64  `json:"numericValue"`
	Details          struct {
		// Items is a list of resources in the audits the test reads,
		// something else in some others.
		Items               json.RawMessage `json:"items"`
		OverallSavingsBytes float64         `json:"overallSavingsBytes"`
	} `json:"details"`
}

// lighthouseItem is a resource an audit lists.
type lighthouseItem struct {
	URL        string  `json:"url"`
	TotalBytes float64 `json:"totalBytes"`
}

// items returns the resources the audit lists, failing the test when its
// details are not such a list.
func (a lighthouseAudit) items(t *testing.T, where string) []lighthouseItem {
	t.Helper()
	var out []lighthouseItem
	if len(a.Details.Items) == 0 {
		return nil
	}
	if err := json.Unmarshal(a.Details.Items, &out); err != nil {
		t.Errorf("%s: audit %q: reading its items: %v", where, a.Title, err)
	}
	return out
}

// audit returns the named audit, failing the test when Lighthouse did not
// run it (a new Lighthouse may rename one: the test must then be told).
func (r *lighthouseReport) audit(t *testing.T, where, id string) lighthouseAudit {
	t.Helper()
	a, ok := r.Audits[id]
	if !ok {
		t.Errorf("%s: Lighthouse ran no audit %q", where, id)
	}
	return a
}

// score returns a category's score, -1 when Lighthouse gave none.
func (r *lighthouseReport) score(cat string) float64 {
	if c, ok := r.Categories[cat]; ok && c.Score != nil {
		return *c.Score
	}
	return -1
}

// failing lists the audits of a category that count towards its score and
// did not pass, with what Lighthouse measured.
func (r *lighthouseReport) failing(cat string) []string {
	var out []string
	for _, ref := range r.Categories[cat].AuditRefs {
		a, ok := r.Audits[ref.ID]
		if !ok || ref.Weight == 0 || a.Score == nil || *a.Score >= 1 {
			continue
		}
		s := fmt.Sprintf("%s (%s): score %.2f", ref.ID, a.Title, *a.Score)
		if a.DisplayValue != "" {
			s += ", " + a.DisplayValue
		}
		out = append(out, s)
	}
	return out
}

// runLighthouse audits the URLs, in order, with the pinned Lighthouse in
// one Debian Chromium, started with the flags every browser test uses and
// a fresh profile, and one Node process (lighthouse.mjs): the CLI cost a
// Node process and a Chromium per page. A page Lighthouse gave up on for
// a slow browser is audited again (auditRetrying).
func runLighthouse(t *testing.T, urls ...string) []*lighthouseReport {
	t.Helper()
	reps, err := auditRetrying(urls, lighthouseAttempts, t.Logf, func(urls []string) ([]*lighthouseReport, error) {
		return lighthouseOnce(t, urls)
	})
	if err != nil {
		t.Fatal(err)
	}
	return reps
}

// lighthouseAttempts is how often a page is audited before a protocol
// timeout fails the test.
const lighthouseAttempts = 3

// lighthouseTimeout is the runtime error Lighthouse reports when Chromium
// did not answer one of its DevTools commands in time. Some of its
// commands have a second to answer (MainDocumentContent asks for the
// page's body with Network.getResponseBody), which a machine busy with
// the rest of make test can miss: TestLighthouse failed so once, on the
// term page, in a fresh make test that perf was sampling. It says
// nothing about the page.
const lighthouseTimeout = "PROTOCOL_TIMEOUT"

// auditRetrying audits the URLs with audit and audits again, at most
// attempts times in all, the pages whose report is a protocol timeout,
// logging each time with logf. Any other runtime error fails its page at
// once; a page still timing out after the last attempt fails too, and
// every page's failure is reported. A page that passes on a later attempt
// has all of its audits and scores checked like any other: only the
// browser's answer was late, never an audit excused.
func auditRetrying(urls []string, attempts int, logf func(string, ...any), audit func([]string) ([]*lighthouseReport, error)) ([]*lighthouseReport, error) {
	reps := make([]*lighthouseReport, len(urls))
	todo := make([]int, len(urls))
	for i := range todo {
		todo[i] = i
	}
	var errs []error
	for attempt := 1; len(todo) > 0; attempt++ {
		batch := make([]string, len(todo))
		for j, i := range todo {
			batch[j] = urls[i]
		}
		got, err := audit(batch)
		if err != nil {
			return nil, err
		}
		var again []int
		for j, i := range todo {
			rep := got[j]
			code := ""
			if rep.RuntimeError != nil && rep.RuntimeError.Code != "NO_ERROR" {
				code = rep.RuntimeError.Code
			}
			switch {
			case code == "":
				reps[i] = rep
			case code == lighthouseTimeout && attempt < attempts:
				logf("lighthouse %s: %s: %s (attempt %d of %d; auditing it again)", urls[i], code, rep.RuntimeError.Message, attempt, attempts)
				again = append(again, i)
			default:
				errs = append(errs, fmt.Errorf("lighthouse %s: %s: %s (attempt %d of %d)", urls[i], code, rep.RuntimeError.Message, attempt, attempts))
			}
		}
		todo = again
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return reps, nil
}

// lighthouseOnce runs lighthouse.mjs once on the URLs and returns a report
// for each, in order.
func lighthouseOnce(t *testing.T, urls []string) ([]*lighthouseReport, error) {
	flags := make([]string, 0, len(chromiumFlags)+1)
	for _, f := range chromiumFlags {
		flags = append(flags, "--"+f)
	}
	flags = append(flags, "--user-data-dir="+t.TempDir())
	args := append([]string{filepath.Join(repoRoot(t), "browsertest", "lighthouse.mjs"),
		strings.Join(flags, " "), strings.Join(lighthouseCategories, ",")}, urls...)
	cmd := exec.Command("node", args...)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromiumPath())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("lighthouse %s: %v\n%s", strings.Join(urls, " "), err, stderr.Bytes())
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != len(urls) {
		return nil, fmt.Errorf("lighthouse: %d reports for %d pages\n%s", len(lines), len(urls), stderr.Bytes())
	}
	reps := make([]*lighthouseReport, len(urls))
	for i, line := range lines {
		var rep lighthouseReport
		if err := json.Unmarshal(line, &rep); err != nil {
			return nil, fmt.Errorf("lighthouse %s: decoding the report: %v", urls[i], err)
		}
		reps[i] = &rep
	}
	return reps, nil
}

// lighthousePage is one audited page.
type lighthousePage struct{ name, path string }

// lighthousePages are the audited pages, one of each type issue 13 names:
// home, papers, coverage, an entry, a term page and the traces page.
func lighthousePages(c *corpus.Corpus) []lighthousePage {
	return []lighthousePage{
		{name: "home", path: ""},
		{name: "papers", path: "papers/"},
		{name: "coverage", path: "coverage/"},
		{name: "entry", path: "papers/" + c.Papers[0].Key + "/"},
		{name: "term", path: "taxonomy/credit_granularity/orchestrator/"},
		{name: "traces", path: "traces/"},
	}
}

// TestLighthouse runs Lighthouse on the built site served compressed and
// fails, with the failing audits, on any page whose accessibility, best
// practices or SEO score is below 100 or that breaks a performance audit
// which does not depend on the clock: a script that blocks rendering,
// text served uncompressed, an image without a size or larger than shown,
// more bytes or requests than the page type's budget, more unused
// JavaScript than unusedJSBudget. The performance score, which moves
// with the machine's load, is logged, never asserted: make bench-lighthouse
// measures it with its spread.
func TestLighthouse(t *testing.T) {
	parallel(t)
	if testing.Short() {
		t.Skip("Lighthouse takes minutes; not in -short")
	}
	base, pages := lighthouseSetup(t)
	var table []string
	urls := make([]string, len(pages))
	for i, pg := range pages {
		urls[i] = base + pg.path
	}
	reps := runLighthouse(t, urls...)
	for i, pg := range pages {
		rep := reps[i]
		where := fmt.Sprintf("%s (/%s)", pg.name, pg.path)
		var row strings.Builder
		fmt.Fprintf(&row, "%-9s", pg.name)
		for _, cat := range lighthouseFull {
			got := rep.score(cat)
			fmt.Fprintf(&row, " %3.0f", 100*got)
			if got < 1 {
				t.Errorf("%s: %s %.0f, want 100; failing audits:\n\t%s", where, cat, 100*got, strings.Join(rep.failing(cat), "\n\t"))
			}
		}
		checkPerformanceAudits(t, rep, where, lighthouseBudgets[pg.name])
		weight := rep.audit(t, where, "total-byte-weight").NumericValue
		requests := len(rep.audit(t, where, "network-requests").items(t, where))
		unused := rep.audit(t, where, "unused-javascript").Details.OverallSavingsBytes
		table = append(table, fmt.Sprintf("%s  %7.0f B in %2d requests, unused JS %6.0f B (performance score %.0f, not asserted)",
			row.String(), weight, requests, unused, 100*rep.score("performance")))
	}
	t.Logf("Lighthouse, accessibility / best practices / SEO, then what each page loads:\n%s", strings.Join(table, "\n"))
}

// lighthouseSetup finds what Lighthouse needs, serves the built site
// compressed and returns the server's root URL and the pages to audit,
// each of which must have been built.
func lighthouseSetup(t *testing.T) (base string, pages []lighthousePage) {
	t.Helper()
	dir := publicDir(t)
	cli := filepath.Join(repoRoot(t), "node_modules", "lighthouse", "cli", "index.js")
	_, err := os.Stat(cli)
	need(t, err == nil, "lighthouse not installed: %v (run make node_modules)", err)
	_, err = exec.LookPath(chromiumPath())
	need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
	_, err = exec.LookPath("node")
	need(t, err == nil, "node not found: %v", err)
	c, _ := loadCorpus(t)
	for _, pg := range lighthousePages(c) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(pg.path), "index.html")); err != nil {
			t.Errorf("%s: page %s not built: %v", pg.name, pg.path, err)
			continue
		}
		pages = append(pages, pg)
	}
	return gzipServer(t, dir), pages
}

// checkPerformanceAudits fails on the performance audits that count bytes,
// requests and markup rather than time. Style sheets block rendering by
// design (the page would flash unstyled without them); a script must not.
func checkPerformanceAudits(t *testing.T, rep *lighthouseReport, where string, budget lighthouseBudget) {
	t.Helper()
	for _, it := range rep.audit(t, where, "render-blocking-resources").items(t, where) {
		if !strings.HasSuffix(it.URL, ".css") {
			t.Errorf("%s: %s blocks the first render (%.0f B); load it with defer or async", where, it.URL, it.TotalBytes)
		}
	}
	for _, id := range []string{"uses-text-compression", "uses-responsive-images", "unsized-images", "uses-optimized-images", "modern-image-formats", "efficient-animated-content", "duplicated-javascript", "legacy-javascript", "unminified-css"} {
		a := rep.audit(t, where, id)
		if a.Score != nil && *a.Score < 1 && a.ScoreDisplayMode != "notApplicable" {
			var urls []string
			for _, it := range a.items(t, where) {
				urls = append(urls, it.URL)
			}
			t.Errorf("%s: %s (%s): %s %v", where, id, a.Title, a.DisplayValue, urls)
		}
	}
	if w := rep.audit(t, where, "total-byte-weight").NumericValue; w > budget.bytes {
		t.Errorf("%s: loads %.0f bytes, over its budget of %.0f", where, w, budget.bytes)
	}
	if items := rep.audit(t, where, "network-requests").items(t, where); len(items) > budget.requests {
		var urls []string
		for _, it := range items {
			urls = append(urls, it.URL)
		}
		t.Errorf("%s: makes %d requests, over its budget of %d: %v", where, len(items), budget.requests, urls)
	}
	if u := rep.audit(t, where, "unused-javascript"); u.Details.OverallSavingsBytes > unusedJSBudget {
		t.Errorf("%s: loads %.0f bytes of JavaScript it does not run, over the budget of %d", where, u.Details.OverallSavingsBytes, unusedJSBudget)
	}
}

// TestLighthousePerformance measures the Lighthouse performance score of
// every audited page MASRL_LIGHTHOUSE_RUNS times and reports the median
// and the spread. It asserts nothing about the score, which depends on
// the machine's load: it is a measurement (make bench-lighthouse, recorded
// in BENCHMARKS.md), and without the variable it skips saying so.
func TestLighthousePerformance(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("MASRL_LIGHTHOUSE_RUNS"))
	if runs <= 0 {
		t.Skip("a measurement, not a test: set MASRL_LIGHTHOUSE_RUNS=5 (make bench-lighthouse)")
	}
	base, pages := lighthouseSetup(t)
	var table []string
	for _, pg := range pages {
		var perf, tbt, lcp []float64
		urls := make([]string, runs)
		for i := range urls {
			urls[i] = base + pg.path
		}
		for _, rep := range runLighthouse(t, urls...) {
			perf = append(perf, 100*rep.score("performance"))
			tbt = append(tbt, rep.Audits["total-blocking-time"].NumericValue)
			lcp = append(lcp, rep.Audits["largest-contentful-paint"].NumericValue)
		}
		table = append(table, fmt.Sprintf("%-9s score %s; total blocking time %s ms; largest contentful paint %s ms",
			pg.name, spread(perf), spread(tbt), spread(lcp)))
	}
	t.Logf("Lighthouse performance, %d runs per page, median (min to max):\n%s", runs, strings.Join(table, "\n"))
}

// spread formats the median of xs and their range.
func spread(xs []float64) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return fmt.Sprintf("%.0f (%.0f to %.0f)", s[len(s)/2], s[0], s[len(s)-1])
}
