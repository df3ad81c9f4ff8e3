package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// sp describes a span for the unit tests below.
type sp struct {
	trace, id, parent string
	name              string
	start, end        int // milliseconds
	attrs             map[string]any
	links             [][2]string
}

const (
	tA = "0af7651916cd43dd8448eb211c80319c"
	tB = "1af7651916cd43dd8448eb211c80319c"
)

func sid(n int) string { return fmt.Sprintf("%016x", n) }

// line writes one ExportTraceServiceRequest holding spans.
func line(spans ...sp) string {
	var out []map[string]any
	for _, s := range spans {
		var attrs []map[string]any
		for k, v := range s.attrs {
			var val map[string]any
			switch x := v.(type) {
			case string:
				val = map[string]any{"stringValue": x}
			case int:
				val = map[string]any{"intValue": fmt.Sprint(x)}
			case float64:
				val = map[string]any{"doubleValue": x}
			}
			attrs = append(attrs, map[string]any{"key": k, "value": val})
		}
		m := map[string]any{"traceId": s.trace, "spanId": s.id, "name": s.name,
			"startTimeUnixNano": fmt.Sprint(int64(s.start) * 1e6), "endTimeUnixNano": fmt.Sprint(int64(s.end) * 1e6), "attributes": attrs}
		if s.parent != "" {
			m["parentSpanId"] = s.parent
		}
		var links []any
		for _, l := range s.links {
			links = append(links, map[string]any{"traceId": l[0], "spanId": l[1]})
		}
		if links != nil {
			m["links"] = links
		}
		out = append(out, m)
	}
	b, _ := json.Marshal(map[string]any{"resourceSpans": []any{map[string]any{"scopeSpans": []any{map[string]any{"spans": out}}}}})
	return string(b) + "\n"
}

func agentSpan(tr string, id, parent int, name string, start, end int) sp {
	s := sp{trace: tr, id: sid(id), name: "invoke_agent " + name, start: start, end: end,
		attrs: map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name}}
	if parent > 0 {
		s.parent = sid(parent)
	}
	return s
}

func toolSpan(tr string, id, parent int, name string, start, end int) sp {
	return sp{trace: tr, id: sid(id), parent: sid(parent), name: "execute_tool " + name, start: start, end: end,
		attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}}
}

// mustValidate fails unless every trace is valid under --strict.
func mustValidate(t *testing.T, traces map[string]*Trace) {
	t.Helper()
	for id, tr := range traces {
		res, err := trace.Validate(bytes.NewReader(tr.JSON), trace.Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Findings {
			t.Errorf("trace %s: %s\n%s", id, f, tr.JSON)
		}
	}
}

func types(t *testing.T, tr *Trace) map[string]int {
	var doc struct {
		Events []struct{ Type string }
		Edges  []struct{ Type string }
	}
	if err := json.Unmarshal(tr.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range doc.Events {
		n["event:"+e.Type]++
	}
	for _, e := range doc.Edges {
		n["edge:"+e.Type]++
	}
	return n
}

// TestWindow checks the flush rule: a trace is written at the end of the
// line on which Window more spans have arrived after its root, a span that comes later is reported with its position
// and not silently lost, and traces without a root wait for the end.
func TestWindow(t *testing.T) {
	var in strings.Builder
	in.WriteString(line(toolSpan(tA, 2, 1, "search", 10, 20)))
	in.WriteString(line(agentSpan(tA, 1, 0, "boss", 0, 100)))
	in.WriteString(line(toolSpan(tB, 5, 4, "x", 0, 5))) // trace B: root never comes
	in.WriteString(line(toolSpan(tA, 3, 1, "late", 30, 40)))
	var written []string
	var diags []Diagnostic
	im := NewImporter(Options{Window: 1}, func(tr *Trace) error {
		written = append(written, fmt.Sprintf("%s:%d", tr.ID[:2], tr.Spans))
		return nil
	}, func(d Diagnostic) { diags = append(diags, d) })
	if err := im.Read("w.jsonl", strings.NewReader(in.String())); err != nil {
		t.Fatal(err)
	}
	// Trace A closed after line 3 (root on line 2, one span after it): the
	// span of line 4 is late, so A has 2 spans.
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(written, " "); got != "0a:2 1a:1" {
		t.Errorf("after Close: written %q", got)
	}
	var late, noParent bool
	for _, d := range diags {
		if d.Line == 4 && d.SpanID == sid(3) && strings.Contains(d.Message, "after its trace was written") {
			late = true
		}
		if d.Line == 3 && d.SpanID == sid(5) && strings.Contains(d.Message, "not in the input") {
			noParent = true
		}
	}
	if !late || !noParent {
		t.Errorf("late span reported: %v, missing parent reported: %v; diagnostics %v", late, noParent, diags)
	}
}

// TestReturnsAndAggregates: two children that end before the parent's
// next step are aggregated; one that ends alone returns to that step.
func TestReturnsAndAggregates(t *testing.T) {
	in := line(
		agentSpan(tA, 1, 0, "boss", 0, 1000),
		agentSpan(tA, 2, 1, "w1", 10, 100),
		toolSpan(tA, 3, 2, "a", 20, 30),
		agentSpan(tA, 4, 1, "w2", 15, 120),
		toolSpan(tA, 5, 1, "merge", 200, 300),
		agentSpan(tA, 6, 1, "w3", 310, 400),
		toolSpan(tA, 7, 1, "final", 500, 600),
		agentSpan(tA, 8, 6, "sub", 320, 330),
	)
	traces, _, _ := importAll(t, "r.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	tr := traces[tA]
	n := types(t, tr)
	want := map[string]int{"event:spawn": 4, "event:return": 4, "event:aggregate": 1, "edge:aggregate": 2, "edge:return": 2,
		"edge:spawn": 4, "event:tool_call": 3, "edge:tool_dependency": 3}
	for k, v := range want {
		if n[k] != v {
			t.Errorf("%s: %d, want %d (%v)", k, n[k], v, n)
		}
	}
	if tr.Stats.Topology != "hierarchical" {
		t.Errorf("topology %q, want hierarchical (sub is spawned by w3)", tr.Stats.Topology)
	}
}

// TestMalformedStructure: cycles, duplicate ids, second roots, links
// across traces and ends before starts are warnings with positions; the
// trace still validates.
func TestMalformedStructure(t *testing.T) {
	cyc1 := toolSpan(tA, 5, 6, "c1", 50, 60)
	cyc2 := toolSpan(tA, 6, 5, "c2", 55, 65)
	back := toolSpan(tA, 7, 1, "back", 80, 70)
	linked := toolSpan(tA, 8, 1, "linked", 90, 95)
	linked.links = [][2]string{{tB, sid(1)}, {tA, sid(2)}, {tA, sid(99)}}
	in := line(agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "t", 10, 20)) +
		line(toolSpan(tA, 2, 1, "t", 10, 20), agentSpan(tA, 3, 0, "other-root", 30, 40), cyc1, cyc2) +
		line(back, linked)
	traces, _, diags := importAll(t, "m.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	if len(traces) != 1 {
		t.Fatalf("%d traces", len(traces))
	}
	for _, want := range []string{"span id given twice", "a second root span", "loops back", "ends before it starts",
		"links between traces are not mapped", "not in the input: not mapped"} {
		found := false
		for _, d := range diags {
			if strings.Contains(d.Message, want) && d.Line > 0 && d.File == "m.jsonl" && d.SpanID != "" {
				found = true
			}
		}
		if !found {
			t.Errorf("no positioned warning %q in %v", want, diags)
		}
	}
	if n := types(t, traces[tA]); n["edge:temporal"] == 0 {
		t.Errorf("the link inside the trace made no edge: %v", n)
	}
}

// TestTokensNotCountedTwice: an agent span's usage that totals its model
// calls is not added to theirs.
func TestTokensNotCountedTwice(t *testing.T) {
	boss := agentSpan(tA, 1, 0, "boss", 0, 100)
	boss.attrs["gen_ai.usage.input_tokens"] = 30
	chat := func(id int) sp {
		return sp{trace: tA, id: sid(id), parent: sid(1), name: "chat", start: 10 * id, end: 10*id + 5,
			attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 5}}
	}
	traces, _, _ := importAll(t, "t.jsonl", []byte(line(boss, chat(2), chat(3))), Options{})
	if got := traces[tA].Stats.Tokens; got != 30 {
		t.Errorf("tokens %d, want 30 (two model calls of 15; the agent's 30 is their total)", got)
	}
}

// TestIDsCannotEscape: ParseTraceID accepts only what the importer
// writes, so --out DIR/ID.json stays in DIR.
func TestIDsCannotEscape(t *testing.T) {
	for _, bad := range []string{"", "../../../../etc/passwd", "0AF7651916CD43DD8448EB211C80319C", tA + "0", strings.Repeat("g", 32), "0af7651916cd43dd8448eb211c8031/c"} {
		if ParseTraceID(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := ParseTraceID(tA); err != nil {
		t.Error(err)
	}
}

// TestWorkersAgree: the output does not depend on how many lines are
// decoded at once.
func TestWorkersAgree(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "genai.otlp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	one, order1, d1 := importAll(t, "g", data, Options{Workers: 1})
	four, order4, d4 := importAll(t, "g", data, Options{Workers: 4})
	if fmt.Sprint(order1) != fmt.Sprint(order4) || fmt.Sprint(d1) != fmt.Sprint(d4) {
		t.Fatalf("orders %v / %v, diagnostics %v / %v", order1, order4, d1, d4)
	}
	for id := range one {
		if !bytes.Equal(one[id].JSON, four[id].JSON) {
			t.Errorf("trace %s differs", id)
		}
	}
}

// TestBase64IDs: ids a plain protobuf-JSON encoder wrote (base64) are
// read as the hex ids the collector writes; a long id is an error, not a
// crash.
func TestBase64IDs(t *testing.T) {
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[` +
		`{"traceId":"CvdlGRbNQ92ESOshHIAxnA==","spanId":"AAAAAAAAAAE=","name":"chat","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]},` +
		`{"traceId":"` + strings.Repeat("QUFB", 400) + `","spanId":"AAAAAAAAAAI="}]}]}]}` + "\n"
	traces, _, diags := importAll(t, "b.jsonl", []byte(in), Options{})
	if len(traces) != 1 || traces[tA] == nil || !bytes.Contains(traces[tA].JSON, []byte(`"0000000000000001/message"`)) {
		t.Errorf("traces %v", traces)
	}
	if len(diags) != 1 || diags[0].Severity != Error || !strings.Contains(diags[0].Message, "is not 32 hex digits") {
		t.Errorf("diagnostics %v", diags)
	}
}

// TestGraphNodeParent: OpenInference's graph.node.parent_id names the
// agent that spawned an agent even when the span tree puts both under a
// chain.
func TestGraphNodeParent(t *testing.T) {
	oi := func(id, parent int, kind, name, node, nodeParent string, start, end int) sp {
		a := map[string]any{"openinference.span.kind": kind, "graph.node.id": node}
		if kind == "AGENT" {
			a["agent.name"] = name
		}
		if nodeParent != "" {
			a["graph.node.parent_id"] = nodeParent
		}
		s := sp{trace: tA, id: sid(id), name: name, start: start, end: end, attrs: a}
		if parent > 0 {
			s.parent = sid(parent)
		}
		return s
	}
	in := line(oi(1, 0, "CHAIN", "graph", "graph", "", 0, 100),
		oi(2, 1, "AGENT", "planner", "planner", "graph", 10, 50),
		oi(3, 1, "AGENT", "coder", "coder", "planner", 20, 40))
	traces, _, _ := importAll(t, "g.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	var doc struct {
		Events []struct{ Type, Agent, To string }
	}
	if err := json.Unmarshal(traces[tA].JSON, &doc); err != nil {
		t.Fatal(err)
	}
	var spawns []string
	for _, e := range doc.Events {
		if e.Type == "spawn" {
			spawns = append(spawns, e.Agent+">"+e.To)
		}
	}
	if got := strings.Join(spawns, " "); got != "graph>planner planner>coder" || traces[tA].Stats.Topology != "hierarchical" {
		t.Errorf("spawns %q, topology %s", got, traces[tA].Stats.Topology)
	}
}

// TestUnmappedIsReported: attributes of the wrong type and events without
// their values are warnings at the span's line; an exception event is the
// event's error, not a warning.
func TestUnmappedIsReported(t *testing.T) {
	chat := `{"traceId":"` + tA + `","spanId":"` + sid(2) + `","parentSpanId":"` + sid(1) + `","name":"chat","startTimeUnixNano":"1","endTimeUnixNano":"2",` +
		`"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.input_tokens","value":{"stringValue":"many"}}],` +
		`"events":[{"name":"exception","attributes":[{"key":"exception.message","value":{"stringValue":"boom"}}]},{"name":"gen_ai.content.prompt"},` +
		`{"name":"gen_ai.evaluation.result","attributes":[{"key":"gen_ai.evaluation.name","value":{"stringValue":"q"}}]}]}`
	reward := sp{trace: tA, id: sid(3), name: "agentlightning.reward", start: 3, end: 4, attrs: map[string]any{"reward": 1.0}}
	in := line(agentSpan(tA, 1, 0, "boss", 0, 10)) + `{"resourceSpans":[{"scopeSpans":[{"spans":[` + chat + `]}]}]}` + "\n" + line(reward)
	traces, _, diags := importAll(t, "u.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	want := []string{"gen_ai.usage.input_tokens is not a non-negative integer", "evaluation result without a numeric"}
	// An exception event is the span's error, on its event; its message
	// is not copied.
	if tr := traces[tA].JSON; !bytes.Contains(tr, []byte(`"error":"exception"`)) || bytes.Contains(tr, []byte("boom")) {
		t.Errorf("the exception is not the chat event's error, or its message was copied:\n%s", tr)
	}
	for _, w := range want {
		if !slices.ContainsFunc(diags, func(d Diagnostic) bool {
			return strings.Contains(d.Message, w) && d.Line == 2 && d.SpanID == sid(2) && d.Severity == Warning
		}) {
			t.Errorf("no warning %q at line 2 for span %s: %v", w, sid(2), diags)
		}
	}
	if !slices.ContainsFunc(diags, func(d Diagnostic) bool {
		return strings.Contains(d.Message, "no reward recorded") && d.Line == 3 && d.SpanID == sid(3)
	}) {
		t.Errorf("no warning for the reward span without a value: %v", diags)
	}
	if len(diags) != len(want)+1 {
		t.Errorf("%d diagnostics, want %d (content events are left out by design): %v", len(diags), len(want), diags)
	}
}

// TestEmitErrorStopsReading: once Emit fails, the importer stops reading
// its input and returns the error.
func TestEmitErrorStopsReading(t *testing.T) {
	var in strings.Builder
	for i := 1; i <= 2000; i++ {
		in.WriteString(line(agentSpan(fmt.Sprintf("%032x", i), 1, 0, "a", 0, 10), toolSpan(fmt.Sprintf("%032x", i), 2, 1, "t", 1, 2)))
	}
	r := &countingReader{r: strings.NewReader(in.String())}
	stop := fmt.Errorf("disk full")
	emitted := 0
	im := NewImporter(Options{Window: 1, Workers: 2}, func(*Trace) error { emitted++; return stop }, func(Diagnostic) {})
	err := im.Read("e.jsonl", r)
	if err == nil {
		err = im.Close()
	}
	if err != stop || emitted != 1 {
		t.Fatalf("error %v after %d emits, want %v after 1", err, emitted, stop)
	}
	if r.n >= int64(in.Len()) {
		t.Errorf("read all %d bytes after Emit failed", r.n)
	}
}

type countingReader struct {
	r *strings.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p[:min(len(p), 4096)])
	c.n += int64(n)
	return n, err
}

// TestNotJSONOnce: a line that is not JSON at all (no value starts with
// its first byte) is one malformed-JSON error at its line and column, and
// the lines around it are read.
func TestNotJSONOnce(t *testing.T) {
	in := line(agentSpan(tA, 1, 0, "boss", 0, 100)) + "hello\n" + line(toolSpan(tA, 2, 1, "t", 10, 20))
	traces, _, diags := importAll(t, "n.jsonl", []byte(in), Options{Format: FormatJSON})
	mustValidate(t, traces)
	if len(diags) != 1 || diags[0].String() != "n.jsonl:2:1: error: malformed JSON: invalid character 'h' at start of value" {
		t.Fatalf("diagnostics %v", diags)
	}
	if len(traces) != 1 || types(t, traces[tA])["event:tool_call"] == 0 {
		t.Errorf("the lines around the bad one were not imported: %d traces", len(traces))
	}
}

// TestParentCycle: spans whose parents loop are reported as a cycle that
// lists its spans, not as a parent missing from the input: when every span
// has a parent (no root), and when a loop hangs off a rooted trace.
func TestParentCycle(t *testing.T) {
	cases := []struct {
		name  string
		spans []sp
		want  string
	}{
		{"no root", []sp{agentSpan(tA, 1, 3, "a", 0, 100), toolSpan(tA, 2, 1, "t", 10, 20), agentSpan(tA, 3, 2, "b", 30, 40)},
			"every span has a parent, so the parent spans form a cycle (" + sid(1) + " → " + sid(3) + " → " + sid(2) + " → " + sid(1) + "): this span, the earliest, is taken as the root"},
		{"beside a root", []sp{agentSpan(tA, 1, 0, "a", 0, 100), toolSpan(tA, 5, 6, "c1", 50, 60), toolSpan(tA, 6, 5, "c2", 55, 65)},
			"the parent spans form a cycle (" + sid(5) + " → " + sid(6) + " → " + sid(5) + "): placed under the root span " + sid(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			traces, _, diags := importAll(t, "c.jsonl", []byte(line(c.spans...)), Options{})
			mustValidate(t, traces)
			found := false
			for _, d := range diags {
				if strings.Contains(d.Message, "not in the input") {
					t.Errorf("a parent in the input reported missing: %s", d)
				}
				if strings.Contains(d.Message, c.want) && d.Line == 1 && d.SpanID != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("no warning %q in %v", c.want, diags)
			}
		})
	}
}

// TestImplausibleTimes: a span that starts or ends at 2^64-1 ns (or any
// time after 2200) is an error at its JSON Pointer and left out, not a
// run of 584 years; the trace is made of the other spans.
func TestImplausibleTimes(t *testing.T) {
	const never = "18446744073709551615"
	in := strings.Replace(line(agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "late", 10, 777777), toolSpan(tA, 3, 1, "ok", 10, 20)),
		`"777777000000"`, `"`+never+`"`, 1)
	traces, _, diags := importAll(t, "f.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	want := "f.jsonl:1:" // then the column
	wantRest := "error: /resourceSpans/0/scopeSpans/0/spans/1/endTimeUnixNano: endTimeUnixNano " + never +
		" is not a plausible time in Unix nanoseconds: it is after 2200-01-01 (7258118400000000000); the span is left out"
	if len(diags) != 1 || !strings.HasPrefix(diags[0].String(), want) || !strings.HasSuffix(diags[0].String(), wantRest) {
		t.Fatalf("diagnostics %v\nwant %s…%s", diags, want, wantRest)
	}
	if tr := traces[tA]; tr == nil || tr.Stats.WallClockS > 1 || tr.Spans != 2 {
		t.Fatalf("trace %+v: want the two plausible spans, 0.1 s", tr)
	}
}
