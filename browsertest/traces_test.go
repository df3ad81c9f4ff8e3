package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp"
)

// validatorState is what the in-browser validator shows: its status line,
// every finding as listed, and the measures table (row label -> value).
type validatorState struct {
	Status   string            `json:"status"`
	Findings []string          `json:"findings"`
	Stats    map[string]string `json:"stats"`
}

const validatorStateJS = `(() => {
  const root = document.getElementById("masrl-validator");
  const stats = {};
  for (const tr of root.querySelectorAll("table tr")) {
    const th = tr.querySelector("th"), td = tr.querySelector("td");
    if (th && td) stats[th.textContent] = td.textContent;
  }
  return {
    status: root.querySelector("[role=status]").textContent,
    findings: Array.from(root.querySelectorAll("ol li")).map(li => li.textContent),
    stats,
  };
})()`

// verdictDone holds once the validator has shown a verdict for a run
// (the status line says "Validating…" while it works).
const verdictDone = `/^(Valid|Invalid) trace\./.test(document.querySelector("#masrl-validator [role=status]").textContent)`

// schemaFile reads a file of the schema package's test data.
func schemaFile(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "trace", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goResult is what the Go validator says about a trace: the reference the
// page must agree with.
func goResult(t *testing.T, b []byte) *trace.Result {
	t.Helper()
	res, err := trace.Validate(bytes.NewReader(b), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkFindings asserts that the page lists exactly the Go validator's
// findings, each with its JSON Pointer and line.
func checkFindings(t *testing.T, where string, got validatorState, want *trace.Result) {
	t.Helper()
	if !strings.HasPrefix(got.Status, "Invalid trace.") {
		t.Errorf("%s: status %q, want an invalid trace", where, got.Status)
	}
	if len(got.Findings) != len(want.Findings) {
		t.Errorf("%s: %d findings shown, Go finds %d: %q", where, len(got.Findings), len(want.Findings), got.Findings)
	}
	for _, f := range want.Findings {
		line := fmt.Sprintf("line %d,", f.Line)
		if !slices.ContainsFunc(got.Findings, func(s string) bool {
			return strings.Contains(s, f.Pointer+":") && strings.Contains(s, line) && strings.Contains(s, f.Severity.String())
		}) {
			t.Errorf("%s: no finding shows %s at %s; shown: %q", where, f.Pointer, line, got.Findings)
		}
	}
}

// TestTraces drives the traces page's validator: a pasted valid trace, a
// dropped and a picked invalid one, and hostile text, all checked against
// the Go validator, with no request beyond the page's own files.
func TestTraces(t *testing.T) {
	parallel(t)
	dir := publicDir(t)
	_, err := os.Stat(filepath.Join(dir, "traces", "validator", "masrl.wasm"))
	need(t, err == nil, "site built without the validator: %v (run make site)", err)
	b := startBrowser(t, dir)
	p := b.newPage(t)
	p.open(t, "traces/")
	// The module is fetched only when the reader turns to the validator.
	p.waitFor(t, `document.readyState === "complete" && !!document.querySelector("#masrl-validator button")`)
	p.mu.Lock()
	loaded := slices.Sorted(maps.Values(p.requests))
	p.mu.Unlock()
	if slices.ContainsFunc(loaded, func(u string) bool { return strings.HasSuffix(u, "masrl.wasm") }) {
		t.Errorf("the page fetched masrl.wasm before the reader turned to the validator: %v", loaded)
	}
	p.eval(t, `document.querySelector("#masrl-validator textarea").focus(), true`, new(bool))
	p.waitFor(t, `document.getElementById("masrl-validator").dataset.ready === "true"`)
	p.mu.Lock()
	loaded = slices.Sorted(maps.Values(p.requests))
	p.mu.Unlock()
	for _, want := range []string{"traces/validator/masrl.wasm", "traces/validator/wasm_exec.js", "traces/validator/validator.js"} {
		if !slices.ContainsFunc(loaded, func(u string) bool { return strings.HasSuffix(u, want) }) {
			t.Errorf("the page did not load %s: %v", want, loaded)
		}
	}

	// paste puts text in the box and presses Validate with the mouse.
	paste := func(t *testing.T, text string) validatorState {
		t.Helper()
		lit, _ := json.Marshal(text)
		var ok bool
		p.eval(t, `(() => { document.querySelector("#masrl-validator [role=status]").textContent = "";
		  document.querySelector("#masrl-validator textarea").value = `+string(lit)+`; return true; })()`, &ok)
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("#masrl-validator button"))); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, verdictDone)
		var st validatorState
		p.eval(t, validatorStateJS, &st)
		return st
	}

	t.Run("valid example pasted", func(t *testing.T) {
		src := schemaFile(t, "example.json")
		rep, err := trace.Measure(bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		st := paste(t, string(src))
		if !strings.HasPrefix(st.Status, "Valid trace. 0 errors, 0 warnings") || len(st.Findings) != 0 {
			t.Errorf("status %q with findings %q, want a valid trace without findings", st.Status, st.Findings)
		}
		for label, want := range map[string]string{
			"events": strconv.Itoa(rep.Events), "edges": strconv.Itoa(rep.Edges),
			"messages": strconv.Itoa(rep.Messages), "tool calls": strconv.Itoa(rep.ToolCalls),
			"trace id": rep.TraceID, "critical path (events)": strconv.Itoa(rep.Graph.CriticalPath),
		} {
			if got, ok := st.Stats[label]; !ok || got != want {
				t.Errorf("stats %q = %q (shown: %v), want %q as trace.Measure computes", label, got, ok, want)
			}
		}
		p.check(t, "valid example")
	})

	// OpenTelemetry spans are imported in the page, then validated: the
	// page shows the same traces as the Go importer, with the same measures.
	t.Run("OTLP spans pasted", func(t *testing.T) {
		src, err := os.ReadFile(filepath.Join(repoRoot(t), "trace", "otlp", "testdata", "genai.otlp.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var traces []*otlp.Trace
		im := otlp.NewImporter(otlp.Options{}, func(tr *otlp.Trace) error { traces = append(traces, tr); return nil }, func(otlp.Diagnostic) {})
		if err := im.Read("spans", bytes.NewReader(src)); err != nil {
			t.Fatal(err)
		}
		if err := im.Close(); err != nil || len(traces) != 2 {
			t.Fatalf("Go import: %d traces, %v", len(traces), err)
		}
		st := paste(t, string(src))
		var imported string
		p.eval(t, `document.querySelector("#masrl-validator .masrl-import").textContent`, &imported)
		if imported != "OpenTelemetry import: 2 traces, 0 errors, 1 warning." || !strings.HasPrefix(st.Status, "Valid trace. 0 errors, 0 warnings") {
			t.Errorf("import %q, status %q", imported, st.Status)
		}
		for i, tr := range traces {
			if i > 0 {
				var ok bool
				p.eval(t, `(() => { const s = document.querySelector("#masrl-trace-pick"); s.value = "`+strconv.Itoa(i)+`";
				  document.querySelector("#masrl-validator [role=status]").textContent = "";
				  s.dispatchEvent(new Event("change")); return true; })()`, &ok)
				p.waitFor(t, verdictDone)
				p.eval(t, validatorStateJS, &st)
			}
			rep, err := trace.Measure(bytes.NewReader(tr.JSON))
			if err != nil {
				t.Fatal(err)
			}
			for label, want := range map[string]string{"trace id": tr.ID, "events": strconv.Itoa(rep.Events),
				"tokens": strconv.FormatFloat(rep.Costs.Tokens, 'g', -1, 64), "tool calls": strconv.Itoa(rep.ToolCalls)} {
				if got := st.Stats[label]; got != want {
					t.Errorf("trace %d: stats %q = %q, want %q as the Go importer and trace.Measure give", i, label, got, want)
				}
			}
		}
		p.check(t, "OTLP import")
	})

	t.Run("invalid fixture pasted", func(t *testing.T) {
		src := schemaFile(t, "invalid/event-bad-type.json")
		want := goResult(t, src)
		if want.Valid() || len(want.Findings) == 0 || want.Findings[0].Pointer != "/events/1/type" {
			t.Fatalf("fixture changed: %+v", want.Findings)
		}
		checkFindings(t, "event-bad-type.json", paste(t, string(src)), want)
		p.check(t, "invalid fixture")
	})

	t.Run("invalid fixture dropped", func(t *testing.T) {
		src := schemaFile(t, "invalid/edge-dangling.json")
		want := goResult(t, src)
		lit, _ := json.Marshal(string(src))
		var ok bool
		p.eval(t, `(() => { document.querySelector("#masrl-validator [role=status]").textContent = "";
		  const dt = new DataTransfer();
		  dt.items.add(new File([`+string(lit)+`], "edge-dangling.json", {type: "application/json"}));
		  document.querySelector("#masrl-validator textarea").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		  return true; })()`, &ok)
		p.waitFor(t, verdictDone)
		var st validatorState
		p.eval(t, validatorStateJS, &st)
		checkFindings(t, "edge-dangling.json (dropped)", st, want)
		p.check(t, "dropped fixture")
	})

	t.Run("invalid fixture picked", func(t *testing.T) {
		path := filepath.Join(repoRoot(t), "trace", "testdata", "invalid", "duplicate-event-id.json")
		src := schemaFile(t, "invalid/duplicate-event-id.json")
		want := goResult(t, src)
		var ok bool
		p.eval(t, `(() => { document.querySelector("#masrl-validator [role=status]").textContent = ""; return true; })()`, &ok)
		if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS(`#masrl-validator input[type=file]`), []string{path})); err != nil {
			t.Fatal(err)
		}
		p.waitFor(t, verdictDone)
		var st validatorState
		p.eval(t, validatorStateJS, &st)
		checkFindings(t, "duplicate-event-id.json (picked)", st, want)
		p.check(t, "picked fixture")
	})

	t.Run("hostile text stays text", func(t *testing.T) {
		src := `{"trace_id": "<img src=x onerror=window.__hostile=1>", "task_id": "k",
		  "events": [{"id": "e1", "t": 0, "type": "<script>window.__hostile=2</script>", "agent": "<b>a</b>"}],
		  "edges": [], "rewards": {}, "costs": {"tokens": 1, "wall_clock_s": 1}}`
		st := paste(t, src)
		if len(st.Findings) == 0 || !strings.Contains(strings.Join(st.Findings, "\n"), "<script>") {
			t.Errorf("findings %q should quote the bad type as text", st.Findings)
		}
		var hostile struct {
			Flag any `json:"flag"`
			Tags int `json:"tags"`
		}
		p.eval(t, `({flag: window.__hostile === undefined ? null : window.__hostile,
		  tags: document.querySelectorAll("#masrl-validator img, #masrl-validator script, #masrl-validator b").length})`, &hostile)
		if hostile.Flag != nil || hostile.Tags != 0 {
			t.Errorf("trace text became markup: flag %v, %d elements", hostile.Flag, hostile.Tags)
		}
		p.check(t, "hostile trace")
	})

	t.Run("nothing leaves the page", func(t *testing.T) {
		// Validating fetched nothing: the only requests are the page's own
		// load (external hosts are caught by check in every subtest).
		p.mu.Lock()
		after := slices.Sorted(maps.Values(p.requests))
		p.mu.Unlock()
		// Chromium fetches the favicon whenever it gets to it, which
		// under load can be after the page's own load: it is no request of
		// the validator's.
		notIcon := func(us []string) []string {
			return slices.DeleteFunc(slices.Clone(us), func(u string) bool { return strings.HasSuffix(u, "/favicon.svg") })
		}
		if !slices.Equal(notIcon(after), notIcon(loaded)) {
			t.Errorf("validating made requests: before %v, after %v", loaded, after)
		}
	})

	t.Run("axe", func(t *testing.T) {
		checkAxe(t, p, "/traces/ with findings shown")
		screenshot(t, p, "traces", "light")
		screenshot(t, p, "traces", "dark")
		screenshot(t, p, "traces", "light")
		p.check(t, "/traces/")
	})
}
