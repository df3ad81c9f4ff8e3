package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// viewData decodes the data island of a page masrl trace view wrote.
func viewData(t *testing.T, page string) (data struct {
	Checklist []struct{ Item string }
	Traces    []struct {
		Name   string
		Line   int
		Report struct {
			Valid    bool
			Findings []struct{ Pointer string }
			Stats    *struct {
				TraceID string `json:"trace_id"`
				Events  int
			}
		}
		Trace json.RawMessage
	}
}) {
	t.Helper()
	island := func(id string) string {
		_, after, ok := strings.Cut(page, `<script type="application/json" id="`+id+`"`)
		_, after, ok2 := strings.Cut(after, ">")
		text, _, ok3 := strings.Cut(after, "</script>")
		if !ok || !ok2 || !ok3 {
			return ""
		}
		return text
	}
	text := island("masrl-viewer-data")
	if text == "" {
		t.Fatalf("no data island in %.200s", page)
	}
	if err := json.Unmarshal([]byte(text), &data); err != nil {
		t.Fatal(err)
	}
	// The whole traces follow the script in a second island when the
	// first holds their lite forms (trace/viewer/lite.go).
	if rest := island("masrl-viewer-traces"); rest != "" {
		var whole []json.RawMessage
		if err := json.Unmarshal([]byte(rest), &whole); err != nil || len(whole) != len(data.Traces) {
			t.Fatalf("the island of the whole traces: %v, %d traces for %d units", err, len(whole), len(data.Traces))
		}
		for k := range whole {
			data.Traces[k].Trace = whole[k]
		}
	}
	return data
}

// TestTraceViewOutput: one trace, written to standard output twice, gives
// the same bytes, with the trace, its report and the checklist of
// data/traces.yaml embedded.
func TestTraceViewOutput(t *testing.T) {
	ex := filepath.Join(traceFixtures, "example.json")
	out1, stderr, code := runTraceCmd(t, "", "view", ex, "-o", "-")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out2, _, _ := runTraceCmd(t, "", "view", "-o", "-", ex)
	if out1 != out2 {
		t.Error("two runs on the same trace wrote different files")
	}
	d := viewData(t, out1)
	if len(d.Traces) != 1 || d.Traces[0].Report.Stats == nil || d.Traces[0].Report.Stats.Events != 20 || !d.Traces[0].Report.Valid {
		t.Fatalf("embedded %+v", d.Traces)
	}
	if len(d.Checklist) == 0 || d.Checklist[0].Item != "Topology and roles" {
		t.Errorf("checklist %+v, want data/traces.yaml's", d.Checklist)
	}
	if !strings.Contains(out1, "<title>example.json: orchestration trace</title>") {
		t.Error("the title does not name the file")
	}
}

// TestTraceViewBatch: a JSON Lines file becomes one page of its traces,
// each with its line and findings; a line that is not JSON is embedded as
// null with its syntax finding.
func TestTraceViewBatch(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join(traceFixtures, "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile(filepath.Join(traceFixtures, "invalid", "edge-dangling.json"))
	if err != nil {
		t.Fatal(err)
	}
	compact := func(b []byte) string {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(v)
		return string(out)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	batch := compact(ex) + "\n\n" + compact(bad) + "\n{\"trace_id\": </script>\n"
	if err := os.WriteFile("runs.jsonl", []byte(batch), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runTraceCmd(t, "", "view", "runs.jsonl")
	if code != exitOK || !strings.Contains(stderr, "wrote runs.html (3 traces, 2 with errors)") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile("runs.html")
	if err != nil {
		t.Fatal(err)
	}
	d := viewData(t, string(page))
	if len(d.Traces) != 3 {
		t.Fatalf("%d traces embedded, want 3", len(d.Traces))
	}
	for i, want := range []struct {
		line    int
		valid   bool
		pointer string
	}{{1, true, ""}, {3, false, "/edges/0/dst"}, {4, false, ""}} {
		got := d.Traces[i]
		if got.Line != want.line || got.Report.Valid != want.valid || got.Name != "runs.jsonl" {
			t.Errorf("trace %d: line %d valid %v, want line %d valid %v", i, got.Line, got.Report.Valid, want.line, want.valid)
		}
		if want.pointer != "" && (len(got.Report.Findings) == 0 || got.Report.Findings[0].Pointer != want.pointer) {
			t.Errorf("trace %d: findings %+v, want one at %s", i, got.Report.Findings, want.pointer)
		}
	}
	if string(d.Traces[2].Trace) != "null" || len(d.Traces[2].Report.Findings) == 0 {
		t.Errorf("the malformed line is embedded as %s with findings %+v", d.Traces[2].Trace, d.Traces[2].Report.Findings)
	}
}

// TestTraceViewErrors: bad usage and unreadable input say what is wrong
// and where, with exit code 2.
func TestTraceViewErrors(t *testing.T) {
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.jsonl")
	if err := os.WriteFile(blank, []byte("\n \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view"}, "want one FILE, got 0"},
		{[]string{"view", "a.json", "b.json"}, "want one FILE, got 2"},
		{[]string{"view", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"view", dir}, "is a directory"},
		{[]string{"view", blank}, "blank.jsonl: no traces"},
		{[]string{"view", "--bogus", "x"}, "flag provided but not defined"},
	} {
		_, stderr, code := runTraceCmd(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestTraceViewStdin: - reads the trace from standard input.
func TestTraceViewStdin(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join(traceFixtures, "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runTraceCmd(t, string(ex), "view", "-o", "-", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if d := viewData(t, out); len(d.Traces) != 1 || d.Traces[0].Name != "<stdin>" || d.Traces[0].Report.Stats.Events != 20 {
		t.Errorf("embedded %+v", d.Traces)
	}
}

// TestTraceViewServe: --serve serves the same page on localhost, with the
// page's content security policy as a header, until interrupted.
func TestTraceViewServe(t *testing.T) {
	ex := filepath.Join(traceFixtures, "example.json")
	want, _, _ := runTraceCmd(t, "", "view", "-o", "-", ex)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		var out bytes.Buffer
		done <- traceMain(ctx, []string{"view", "--serve", ex}, &out, pw, trace.OSBatchInput())
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if u == "" {
		t.Fatalf("no address in %q", line)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != want || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("served %d bytes (want the %d of the file) with policy %q", len(body), len(want), resp.Header.Get("Content-Security-Policy"))
	}
	if resp, err := http.Get(u + "other"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("another path: %v %v", resp, err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after the interrupt", code)
	}
}

// TestTraceViewNotOverInput: trace view never writes its page over its
// input, whether -o names the input, the default output (the input's
// base name with .html) is the input, or -o names it by a symbolic link;
// the input is left as it was and nothing else is written. A page it may
// write replaces the old one whole, leaving no temporary file.
func TestTraceViewNotOverInput(t *testing.T) {
	ex, err := os.ReadFile(filepath.Join(traceFixtures, "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, n := range []string{"run.json", "export.html"} {
		if err := os.WriteFile(n, ex, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("run.json", "link.html"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"view", "-o", "run.json", "run.json"},
		{"view", "-o", "./run.json", "run.json"},
		{"view", "export.html"},
		{"view", "-o", "link.html", "run.json"},
	} {
		_, stderr, code := runTraceCmd(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, "writing it would destroy the input") {
			t.Errorf("%q: exit %d, %s; want a refusal", args, code, stderr)
		}
		for _, n := range []string{"run.json", "export.html"} {
			if b, _ := os.ReadFile(n); !bytes.Equal(b, ex) {
				t.Fatalf("%q: %s was overwritten", args, n)
			}
		}
	}
	if err := os.WriteFile("run.html", []byte("an old page"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runTraceCmd(t, "", "view", "run.json"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ents, _ := os.ReadDir(".")
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "export.html link.html run.html run.json" {
		t.Errorf("files %s, want the inputs, the link and run.html", got)
	}
	if b, _ := os.ReadFile("run.html"); !bytes.Contains(b, []byte("masrl-viewer-data")) {
		t.Error("run.html is not the new page")
	}
}
