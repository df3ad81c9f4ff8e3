package browsertest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// liteView is what TestViewerLite compares of a trace shown from its lite
// form and from its whole text: everything the viewer's columns decide
// (lanes, their tree, tools, edge counts) and the agents table they fill
// (roles, spawners, event and tool-call counts, tokens, times).
type liteView struct {
	Events    int
	Lanes     any
	EdgeCount map[string]int
	Agents    string
	Summary   string
}

// TestViewerLite: a written file draws its first frame from lite traces
// (trace/viewer/lite.go), reductions of the traces to what the viewer's
// columns read. The same trace shown from its whole text (the path a file
// takes when a finding sits on an edge) must look the same, for traces
// written to probe every reduction (non-string members, duplicate keys,
// escapes, first roles, members read only on some event types, times as
// integers) and for random ones.
//
// The files open one after the other in one tab: each is a document of
// its own, and the viewer keeps nothing that outlives one (no storage, no
// worker beyond the page's). A tab for each of the 40 files cost about
// 0.45 s of CPU apiece (Chromium's renderer started and torn down): the
// test took 29 s of the machine's CPU in 40 tabs, 11 s in one.
func TestViewerLite(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	b := startBrowser(t, dir)
	p := b.newPage(t)
	cases := []string{
		`{"events":[{"id":"e1","t":0,"type":"tool_result","agent":5,"tool":5},{"id":"e2","t":1,"type":"tool_result","agent":{},"tool":{}},{"id":"e3","t":"2","type":"tool_result","agent":null,"tool":null}],"edges":[]}`,
		`{"events":[{"t":0,"type":"message","agent":"a","role":""},{"t":1,"type":"message","agent":"a","role":"lead"},{"t":2,"type":"message","agent":"a","role":"other"},{"t":3,"type":"message","agent":"\u0061","role":"x"},{"t":4,"type":"message","agent":7,"role":"r"},{"t":5,"type":"message","role":"s"}],"edges":[{"type":"causal"},{"type":5},{"type":{}},null,[],{"type":"toString"}]}`,
		`{"events":[{"t":0,"type":"sp\u0061wn","agent":"o","to":"c"},{"t":1,"type":"spawn","agent":"c","to":"o"},{"t":2,"type":"spawn","agent":"o","to":5},{"t":3,"type":"return","agent":"c","from":7},{"t":4,"type":"return","agent":"c","from":"o","to":"z"},{"t":1e400,"type":"message","agent":"c","to":"q"}],"edges":[]}`,
		`{"events":[{"t":0,"type":"message","agent":"a","reward":null},{"t":0,"type":"message","agent":"b","rewards":{}},{"t":0,"type":"message","agent":"a","tokens":"5"},{"t":-1,"type":"message","agent":"a","tokens":12.5},{"t":0,"t":3,"type":"tool_call","type":"message","agent":"b","agent":"a"}],"edges":[]}`,
		`{"events":[1,"x",null,[],{},{"type":"orchestrator_decision","agent":"o"},{"type":"tool_result","agent":"t","tool":"t"},{"type":"tool_result","agent":"t2","tool":"u"}],"edges":[{"type":"spawn"}]}`,
		`{"events":{"0":{}},"edges":"none"}`,
		`[1,2,3]`,
		`{"events":[{"t":0,"type":"message","agent":"\ud800"},{"t":0,"type":"message","agent":"\ud801","role":"r"},{"t":0,"type":"message","agent":"\ud800","role":"q"}],"edges":[]}`,
	}
	// Times with decimals, which the lite form writes as integers.
	cases = append(cases, `{"events":[{"t":0.1,"type":"spawn","agent":"o","to":"c"},{"t":0.25,"type":"message","agent":"c","tokens":2},{"t":2.675,"type":"return","agent":"c"},{"t":-1.005,"type":"message","agent":"o"}],"edges":[]}`)
	rng := rand.New(rand.NewPCG(38, 1))
	for range 12 {
		cases = append(cases, randomLiteTrace(rng))
	}
	for k, src := range cases {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			var views [2]liteView
			for whole := range 2 {
				units := viewUnits("lite.json", []byte(src))
				// Findings on edges (of the validator; columns does not
				// read the report) would keep the lite form out.
				units[0].Report.Findings = slices.DeleteFunc(units[0].Report.Findings, func(f trace.Finding) bool { return strings.HasPrefix(f.Pointer, "/edges/") })
				if whole == 1 {
					// A finding on an edge makes the file embed the whole
					// trace in its first island.
					units[0].Report.Findings = append(units[0].Report.Findings, trace.Finding{Pointer: "/edges/0", Line: 1, Col: 1, Severity: trace.Error, Rule: "schema", Message: "x"})
				}
				file := fmt.Sprintf("lite%d-%d.html", k, whole)
				writeView(t, dir, file, units)
				p.open(t, file)
				p.waitFor(t, fileReady)
				p.waitFor(t, `!!MasrlViewer.state() && MasrlViewer.state().settled`)
				p.eval(t, `(() => { const s = MasrlViewer.state(); const q = (sel) => (document.querySelector(sel) || {}).textContent || "";
				  return {Events: s.events, Lanes: s.lanes, EdgeCount: s.edgeCount, Agents: q("#masrl-viewer .mv-agents"), Summary: q("#masrl-viewer .mv-summary")}; })()`, &views[whole])
				var lite bool
				p.eval(t, `!!document.getElementById("masrl-viewer-traces")`, &lite)
				if lite != (whole == 0) {
					t.Fatalf("file %s has a second island: %v, want %v", file, lite, whole == 0)
				}
				p.check(t, file)
			}
			if !reflect.DeepEqual(views[0], views[1]) {
				t.Errorf("trace %s:\nfrom the lite trace  %+v\nfrom the whole trace %+v", src, views[0], views[1])
			}
		})
	}
}

// randomLiteTrace writes a small trace whose events draw their members
// from values of every kind, so that the lite reduction meets strings,
// numbers, objects, nulls and the types columns treats apart.
func randomLiteTrace(rng *rand.Rand) string {
	values := []string{`"a"`, `"b"`, `"t"`, `""`, `0`, `1.5`, `null`, `true`, `{}`, `[]`, `"spawn"`, `"return"`, `"tool_result"`}
	types := []string{`"spawn"`, `"return"`, `"tool_result"`, `"tool_call"`, `"message"`, `"orchestrator_decision"`, `5`}
	keys := []string{"t", "agent", "role", "tokens", "to", "from", "tool", "reward", "rewards", "id"}
	var b strings.Builder
	b.WriteString(`{"events":[`)
	for i := range 4 + rng.IntN(12) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":` + types[rng.IntN(len(types))])
		for range rng.IntN(7) {
			k := keys[rng.IntN(len(keys))]
			v := values[rng.IntN(len(values))]
			if k == "t" && rng.IntN(2) == 0 {
				v = fmt.Sprint(rng.IntN(10))
			}
			b.WriteString(`,"` + k + `":` + v)
		}
		b.WriteByte('}')
	}
	b.WriteString(`],"edges":[{"type":"spawn"},{"type":"causal"},{"type":3}]}`)
	return b.String()
}
