package browsertest

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/corpus"
)

// lighthouseTargets are the scores every audited page must reach, by
// Lighthouse category (mobile defaults, served compressed): the targets of
// issue 13.
var lighthouseTargets = map[string]float64{
	"performance": 0.95, "accessibility": 1, "best-practices": 1, "seo": 1,
}

// lighthouseCategories lists the categories in report order.
var lighthouseCategories = []string{"performance", "accessibility", "best-practices", "seo"}

// lighthouseRuns is how many times a page is audited when its first
// performance score misses the target: performance varies from run to run
// (the machine is shared), and Lighthouse's own advice is to take the
// median of several runs. The other categories do not vary and count from
// the first run.
const lighthouseRuns = 3

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
	Audits map[string]struct {
		Title        string   `json:"title"`
		Score        *float64 `json:"score"`
		DisplayValue string   `json:"displayValue"`
	} `json:"audits"`
	RuntimeError *struct {
		Code, Message string
	} `json:"runtimeError"`
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

// runLighthouse audits one URL with the pinned Lighthouse CLI in Debian's
// Chromium, started with the flags every browser test uses.
func runLighthouse(t *testing.T, cli, url string) *lighthouseReport {
	t.Helper()
	flags := make([]string, 0, len(chromiumFlags)+1)
	for _, f := range chromiumFlags {
		flags = append(flags, "--"+f)
	}
	flags = append(flags, "--user-data-dir="+t.TempDir())
	cmd := exec.Command("node", cli, url, "--quiet", "--output=json", "--output-path=stdout",
		"--only-categories="+strings.Join(lighthouseCategories, ","),
		"--chrome-flags="+strings.Join(flags, " "))
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromiumPath())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lighthouse %s: %v\n%s", url, err, stderr.Bytes())
	}
	var rep lighthouseReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("lighthouse %s: decoding the report: %v", url, err)
	}
	if rep.RuntimeError != nil && rep.RuntimeError.Code != "" && rep.RuntimeError.Code != "NO_ERROR" {
		t.Fatalf("lighthouse %s: %s: %s", url, rep.RuntimeError.Code, rep.RuntimeError.Message)
	}
	return &rep
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

// TestLighthouse runs Lighthouse on the built site served compressed, and
// fails with the scores and the failing audits of any page below the
// targets: performance 95, accessibility, best practices and SEO 100.
func TestLighthouse(t *testing.T) {
	if testing.Short() {
		t.Skip("Lighthouse takes minutes; not in -short")
	}
	dir := publicDir(t)
	cli := filepath.Join(repoRoot(t), "node_modules", "lighthouse", "cli", "index.js")
	_, err := os.Stat(cli)
	need(t, err == nil, "lighthouse not installed: %v (run make node_modules)", err)
	_, err = exec.LookPath(chromiumPath())
	need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
	_, err = exec.LookPath("node")
	need(t, err == nil, "node not found: %v", err)
	c, _ := loadCorpus(t)
	base := gzipServer(t, dir)

	var table []string
	for _, pg := range lighthousePages(c) {
		name, path := pg.name, pg.path
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path), "index.html")); err != nil {
			t.Errorf("%s: page %s not built: %v", name, path, err)
			continue
		}
		rep := runLighthouse(t, cli, base+path)
		perf := []float64{rep.score("performance")}
		for len(perf) < lighthouseRuns && perf[len(perf)-1] < lighthouseTargets["performance"] {
			perf = append(perf, runLighthouse(t, cli, base+path).score("performance"))
		}
		slices.SortFunc(perf, cmp.Compare)
		median := perf[len(perf)/2]
		row := fmt.Sprintf("%-9s %3.0f / %3.0f / %3.0f / %3.0f", name, 100*median,
			100*rep.score("accessibility"), 100*rep.score("best-practices"), 100*rep.score("seo"))
		if len(perf) > 1 {
			row += fmt.Sprintf("  (performance runs %v)", perf)
		}
		table = append(table, row)
		for _, cat := range lighthouseCategories {
			got, want := rep.score(cat), lighthouseTargets[cat]
			if cat == "performance" {
				got = median
			}
			if got < want {
				t.Errorf("%s (/%s): %s %.0f, want at least %.0f; failing audits:\n\t%s", name, path, cat,
					100*got, 100*want, strings.Join(rep.failing(cat), "\n\t"))
			}
		}
	}
	t.Logf("Lighthouse, performance / accessibility / best practices / SEO:\n%s", strings.Join(table, "\n"))
}
