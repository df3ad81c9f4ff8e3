package browsertest

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTraceServeLive runs masrl trace serve, opens its page in Chromium,
// marks the open page, posts a framework's spans to the OTLP endpoint and
// waits until the same page (the mark still there: no reload) lists the
// trace.
func TestTraceServeLive(t *testing.T) {
	parallel(t)
	_, err := exec.LookPath(chromiumPath())
	need(t, err == nil, "chromium not found at %s (run make chromium)", chromiumPath())
	dir := t.TempDir()
	bin := buildMasrl(t)
	cmd := exec.Command(bin, "trace", "serve", "--otlp", "127.0.0.1:0", "--addr", "127.0.0.1:0", "--out", filepath.Join(dir, "traces"), "--idle", "50ms")
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
	// "masrl trace serve: OTLP/HTTP on http://ADDR/v1/traces, traces in DIR, page on http://ADDR/ (interrupt to stop)"
	log := bufio.NewReader(stderr)
	line, err := log.ReadString('\n')
	if err != nil {
		t.Fatalf("masrl trace serve: %v", err)
	}
	m := regexp.MustCompile(`OTLP/HTTP on (http://\S+/v1/traces), .* page on (http://\S+/) `).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("masrl trace serve said %q", line)
	}
	go func() {
		for {
			if _, err := log.ReadString('\n'); err != nil {
				return
			}
		}
	}()
	b := startBrowserAt(t, m[2])
	p := b.newPage(t)
	p.open(t, "")
	p.waitFor(t, `document.getElementById("traces") !== null`)
	p.eval(t, `window.notReloaded = true`, new(bool))

	data, err := os.ReadFile(filepath.Join(repoRoot(t), "trace", "otlp", "testdata", "frameworks", "runs", "langgraph.otlp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		resp, err := http.Post(m[1], "application/json", bytes.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST: %s", resp.Status)
		}
	}
	const id = "16a90000000000000000000000000001"
	p.waitFor(t, `window.notReloaded === true && document.querySelector('#traces li[data-id="`+id+`"] a') !== null`)
	// Closing the page ends the event stream: Chromium reports that as
	// aborted, which is no fault.
	p.mu.Lock()
	p.problems = slices.DeleteFunc(p.problems, func(s string) bool { return strings.HasSuffix(s, "/events: net::ERR_ABORTED") })
	p.mu.Unlock()
	p.check(t, "trace serve page")
}
