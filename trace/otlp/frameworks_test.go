//go:build !(js && wasm)

package otlp

import (
	"encoding/binary"
	"fmt"
	"maps"

	"bytes"
	"encoding/json"
	"github.com/klauspost/compress/zstd"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"

	"github.com/masrl/masrl/internal/golden"
)

// TestZstdInputs: the collector's file exporter with compression: zstd
// (each record one zstd frame, of protobuf or of JSON) and a file
// compressed whole with zstd import into the same trace as the plain JSON.
func TestZstdInputs(t *testing.T) {
	base := filepath.Join("testdata", "frameworks", "runs", "openai-agents")
	js, err := os.ReadFile(base + ".otlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := os.ReadFile(base + ".otlp.binpb")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	record := func(out, msg []byte) []byte {
		z := enc.EncodeAll(msg, nil)
		return append(binary.BigEndian.AppendUint32(out, uint32(len(z))), z...)
	}
	var protoRecs, jsonRecs []byte
	for rest := pb; len(rest) > 0; {
		n := binary.BigEndian.Uint32(rest)
		protoRecs = record(protoRecs, rest[4:4+n])
		rest = rest[4+n:]
	}
	for l := range bytes.Lines(js) {
		jsonRecs = record(jsonRecs, l)
	}
	want, _, _ := importAll(t, "plain.jsonl", js, Options{})
	for name, in := range map[string][]byte{
		"collector zstd proto": protoRecs, "collector zstd json": jsonRecs,
		"whole file zstd json": enc.EncodeAll(js, nil), "whole file zstd proto": enc.EncodeAll(pb, nil),
	} {
		got, order, diags := importAll(t, name, in, Options{})
		for _, d := range diags {
			t.Errorf("%s: %s", name, d)
		}
		if len(order) != 1 || !bytes.Equal(got[order[0]].JSON, want[order[0]].JSON) {
			t.Errorf("%s: does not import into the plain JSON's trace", name)
		}
	}
}

// TestForeignFormats: exports that are not OTLP get an error naming them.
func TestForeignFormats(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"name":"chat","context":{"trace_id":"0xab","span_id":"0x1"},"kind":"SpanKind.INTERNAL","attributes":{}}`, "ConsoleSpanExporter"},
		{`{"name":"chat","span_kind":"LLM","context.span_id":"1","context.trace_id":"2"}`, "Phoenix"},
		{`{"id":"t1","projectId":"p","observations":[]}`, "Langfuse"},
		{"{\n  resource: {\n    attributes: {\n      'service.name': 'x'\n    }\n  },\n  traceId: 'ab',\n  name: 'chat'\n}", "ConsoleSpanExporter"},
		{`{"traceId":"` + tA + `","spanId":"` + sid(1) + `","parentSpanId":"","name":"x"}`, "single span"},
	} {
		_, _, diags := importAll(t, "x.json", []byte(c.in+"\n"), Options{})
		if len(diags) != 1 || diags[0].Severity != Error || diags[0].Line < 1 || !strings.Contains(diags[0].Message, c.want) || !strings.Contains(diags[0].Message, "not OTLP") {
			t.Errorf("%s: diagnostics %v, want one error naming %s", c.in, diags, c.want)
		}
	}
}

// TestUnknownKindsOncePerKind: spans of a kind the mapping does not know
// are one warning per kind and trace, with their number, not one per span.
func TestUnknownKindsOncePerKind(t *testing.T) {
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100),
		{trace: tA, id: sid(2), parent: sid(1), name: "chat", start: 1, end: 2, attrs: map[string]any{"gen_ai.operation.name": "chat"}}}
	for i := range 5 {
		op := map[string]any{"gen_ai.operation.name": "fetch_response"}
		if i >= 3 {
			op = map[string]any{"openinference.span.kind": "EVALUATOR"}
		}
		spans = append(spans, sp{trace: tA, id: sid(10 + i), parent: sid(1), name: fmt.Sprintf("s%d", i), start: 10 + i, end: 11 + i, attrs: op})
	}
	traces, _, diags := importAll(t, "k.jsonl", []byte(line(spans...)), Options{})
	mustValidate(t, traces)
	var got []string
	for _, d := range diags {
		got = append(got, d.SpanID+": "+d.Message)
	}
	want := []string{
		sid(10) + `: span "s0" is not an agent, tool, model, handoff, guardrail or reward span (gen_ai.operation.name="fetch_response" is not mapped; 3 span(s) of this kind in the trace, reported once): left out; the spans under them join the nearest agent`,
		sid(13) + `: span "s3" is not an agent, tool, model, handoff, guardrail or reward span (openinference.span.kind="EVALUATOR" is not mapped; 2 span(s) of this kind in the trace, reported once): left out; the spans under them join the nearest agent`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUnknownServiceNamesNothing: the SDK's unknown_service:* default is
// neither the system nor the root agent's name.
func TestUnknownServiceNamesNothing(t *testing.T) {
	root := sp{trace: tA, id: sid(1), name: "workflow", start: 0, end: 10, attrs: map[string]any{"gen_ai.operation.name": "invoke_workflow"}}
	in := strings.Replace(line(root, agentSpan(tA, 2, 1, "worker", 1, 9)), `"resourceSpans":[{`,
		`"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"unknown_service:node"}}]},`, 1)
	if !strings.Contains(in, "unknown_service:node") {
		t.Fatalf("the resource was not added: %s", in)
	}
	traces, _, _ := importAll(t, "s.jsonl", []byte(in), Options{})
	mustValidate(t, traces)
	if tr := traces[tA].JSON; bytes.Contains(tr, []byte("unknown_service")) || !bytes.Contains(tr, []byte(`"agent":"workflow","to":"worker"`)) {
		t.Errorf("unknown_service named something, or the root is not named by its span:\n%s", tr)
	}
}

// TestAgentAsToolNamesTheTarget: a return_to_caller transfer with no agent
// span under it is a spawn of the target and its return, counted once (no
// tool call), even when the instrumentation stamps the calling agent's
// gen_ai.agent.name and id on the tool span.
func TestAgentAsToolNamesTheTarget(t *testing.T) {
	tool := toolSpan(tA, 2, 1, "ask_helper", 10, 50)
	maps.Copy(tool.attrs, map[string]any{"gen_ai.transfer.mode": "return_to_caller", "gen_ai.transfer.target.name": "helper",
		"gen_ai.agent.name": "boss", "gen_ai.agent.id": "agent-boss"})
	chat := sp{trace: tA, id: sid(3), parent: sid(2), name: "chat", start: 20, end: 30,
		attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 5, "gen_ai.usage.output_tokens": 7}}
	traces, _, diags := importAll(t, "r.jsonl", []byte(line(agentSpan(tA, 1, 0, "boss", 0, 100), tool, chat)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	tr := traces[tA]
	if st := tr.Stats; st.Spawns != 1 || st.ToolCalls != 0 || st.Tokens != 12 || st.Messages != 2 {
		t.Errorf("stats %+v: want one spawn, no tool call, 12 tokens, 2 messages", st)
	}
	for _, want := range []string{`"type":"spawn","agent":"boss","to":"helper"`, `"type":"message","agent":"helper"`,
		`"type":"return","agent":"helper","from":"helper","to":"boss"`} {
		if !bytes.Contains(tr.JSON, []byte(want)) {
			t.Errorf("no %s in\n%s", want, tr.JSON)
		}
	}
}

// TestTakeoverEdgeNotBackwards: a speaker that starts (rounded down to the
// millisecond, as the JS SDK does) before the previous speaker's return
// gets its handoff message edge from the giver's last event before it, so
// the trace stays valid.
func TestTakeoverEdgeNotBackwards(t *testing.T) {
	w := agentSpan(tA, 2, 1, "writer", 5, 27)
	c := agentSpan(tA, 3, 1, "critic", 26, 60)
	c.attrs["graph.node.parent_id"] = "writer"
	chat := sp{trace: tA, id: sid(4), parent: sid(2), name: "chat", start: 10, end: 20, attrs: map[string]any{"gen_ai.operation.name": "chat"}}
	root := sp{trace: tA, id: sid(1), name: "chat group", start: 0, end: 100, attrs: map[string]any{"gen_ai.operation.name": "invoke_workflow"}}
	traces, _, _ := importAll(t, "h.jsonl", []byte(line(root, w, chat, c)), Options{})
	mustValidate(t, traces)
	tr := traces[tA].JSON
	if !bytes.Contains(tr, []byte(`{"src":"`+sid(4)+`/message","dst":"`+sid(3)+`/handoff","type":"message"}`)) {
		t.Errorf("no handoff edge from the writer's model call:\n%s", tr)
	}
}

// TestFrameworksConversation: two turns of one LangGraph thread are two OTel
// traces sharing a session.id; --group-by conversation joins them into one
// trace (the golden file) holding both turns' agents, tool call and tokens.
func TestFrameworksConversation(t *testing.T) {
	base := filepath.Join("testdata", "frameworks", "runs", "langgraph-turns")
	var traces []*Trace
	for _, ext := range []string{".otlp.jsonl", ".otlp.binpb"} {
		in, err := os.ReadFile(base + ext)
		if err != nil {
			t.Fatal(err)
		}
		_, order, diags := importAll(t, base+ext, in, Options{})
		if len(order) != 2 || len(diags) > 0 {
			t.Fatalf("%s by trace: traces %v, diagnostics %v; want the two turns, no diagnostic", ext, order, diags)
		}
		joined, order, diags := importAll(t, base+ext, in, Options{ByConversation: true})
		if len(order) != 1 || len(diags) > 0 {
			t.Fatalf("%s by conversation: traces %v, diagnostics %v; want one, no diagnostic", ext, order, diags)
		}
		mustValidate(t, joined)
		traces = append(traces, joined[order[0]])
	}
	tr := traces[0]
	if !bytes.Equal(tr.JSON, traces[1].JSON) {
		t.Errorf("JSON and protobuf give different traces")
	}
	// Turn one: agent (asks for search), the graph runs search, agent
	// answers; turn two: agent answers. 84+155 and 215 tokens.
	if st := tr.Stats; st.Spawns != 3 || st.ToolCalls != 1 || st.Tokens != 84+155+215 || st.Messages != 6 {
		t.Errorf("stats %+v: want 3 spawns, 1 tool call, %d tokens, 6 messages", st, 84+155+215)
	}
	for _, want := range []string{"otel:27bc0000000000000000000000000001/", "otel:27bc0000000000000000000000000002/", `"conversation_id":"thread-turns-1"`} {
		if !bytes.Contains(tr.JSON, []byte(want)) {
			t.Errorf("the joined trace has no %s", want)
		}
	}
	if bytes.Contains(tr.JSON, []byte("SECRET-")) {
		t.Errorf("the trace carries prompt, completion or tool text")
	}
	goldenPath := filepath.Join("testdata", "frameworks", "golden", "langgraph-turns.json")
	if golden.Update() {
		if err := os.WriteFile(goldenPath, tr.JSON, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tr.JSON, want) {
		t.Errorf("%s differs from the import; run make otel-fixtures and review the diff", goldenPath)
	}
}

// TestMemoryAndPromptSpans: retrieval and memory operations are tool calls
// named by the operation, creating a memory store runs nothing, and an
// OpenInference PROMPT span (a template rendered) is a container whose
// model call belongs to the agent; none of them is a warning.
func TestMemoryAndPromptSpans(t *testing.T) {
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100)}
	for i, op := range []string{"search_memory", "create_memory", "update_memory", "upsert_memory", "delete_memory", "retrieval", "create_memory_store", "delete_memory_store"} {
		spans = append(spans, sp{trace: tA, id: sid(10 + i), parent: sid(1), name: op + " notes", start: 10 + i, end: 11 + i,
			attrs: map[string]any{"gen_ai.operation.name": op}})
	}
	spans = append(spans, sp{trace: tA, id: sid(30), parent: sid(1), name: "prompt", start: 40, end: 60, attrs: map[string]any{"openinference.span.kind": "PROMPT"}},
		sp{trace: tA, id: sid(31), parent: sid(30), name: "llm", start: 41, end: 50, attrs: map[string]any{"openinference.span.kind": "LLM", "llm.model_name": "m",
			"llm.output_messages.0.message.role": "assistant"}}) // a call records its messages or usage
	traces, _, diags := importAll(t, "m.jsonl", []byte(line(spans...)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	tr := traces[tA]
	if tr.Stats.ToolCalls != 6 {
		t.Errorf("tool calls %d, want the 5 memory operations and the retrieval", tr.Stats.ToolCalls)
	}
	for _, want := range []string{`"tool_call","agent":"boss","tool":"search_memory"`, `"tool_call","agent":"boss","tool":"upsert_memory"`,
		`"tool_call","agent":"boss","tool":"retrieval"`, `"message","agent":"boss","from":"boss","to":"m"`} {
		if !bytes.Contains(tr.JSON, []byte(want)) {
			t.Errorf("no %s in\n%s", want, tr.JSON)
		}
	}
	if bytes.Contains(tr.JSON, []byte("memory_store")) {
		t.Errorf("a memory store's creation became an event:\n%s", tr.JSON)
	}
}

// expectedRun is testdata/frameworks/expected/NAME.json: the orchestration
// a fixture's script performs, written from the script (not from an
// import), so that a mapping change that loses an agent, a spawn, a
// handoff, a tool call or a model call fails here.
type expectedRun struct {
	Script     string         `json:"script"`      // the script that writes the run
	Agents     []string       `json:"agents"`      // every agent, sorted
	Spawns     []string       `json:"spawns"`      // "parent>child", sorted
	Handoffs   []string       `json:"handoffs"`    // "from>to", sorted
	ToolCalls  []string       `json:"tool_calls"`  // "agent:tool", one per call, sorted
	ModelCalls map[string]int `json:"model_calls"` // per agent
	Tokens     int64          `json:"tokens"`      // input+output, each model call once
	// CacheRead and Reasoning are the model calls' cache-read and
	// reasoning tokens (left out when none).
	CacheRead int64 `json:"cache_read_tokens,omitempty"`
	Reasoning int64 `json:"reasoning_tokens,omitempty"`
	// Topology is the trace's topology, by the mapping's rule from the
	// spawns and handoffs above.
	Topology string `json:"topology"`
	// Task and Conversation, when given, are the trace's task_id and a
	// conversation_id its events carry (runs whose frameworks make up a
	// random session id name none).
	Task         string `json:"task,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	// ByConversation imports the run with --group-by conversation (the
	// run's OTel traces are turns of one conversation).
	ByConversation bool `json:"by_conversation,omitempty"`
	// Note says what the instrumentation cannot show of the script.
	Note string `json:"note,omitempty"`
}

// orchestrationOf derives the facts of expectedRun from an imported trace;
// Task and Conversation are the trace's task_id and its events'
// conversation ids, space-separated.
func orchestrationOf(t *testing.T, js []byte) expectedRun {
	t.Helper()
	var doc struct {
		Events []struct {
			ID, Type, Agent, To, Tool string
			Conversation              string `json:"conversation_id"`
		} `json:"events"`
		Costs struct {
			Tokens    int64 `json:"tokens"`
			CacheRead int64 `json:"cache_read_tokens"`
			Reasoning int64 `json:"reasoning_tokens"`
		} `json:"costs"`
		Topology string `json:"topology"`
		Task     string `json:"task_id"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	got := expectedRun{Agents: []string{}, Spawns: []string{}, Handoffs: []string{}, ToolCalls: []string{},
		ModelCalls: map[string]int{}, Tokens: doc.Costs.Tokens, CacheRead: doc.Costs.CacheRead,
		Reasoning: doc.Costs.Reasoning, Topology: doc.Topology, Task: doc.Task}
	agents, convs := map[string]bool{}, map[string]bool{}
	for _, e := range doc.Events {
		if e.Conversation != "" {
			convs[e.Conversation] = true
		}
		switch e.Type {
		case "spawn":
			got.Spawns = append(got.Spawns, e.Agent+">"+e.To)
			agents[e.Agent], agents[e.To] = true, true
		case "return":
			agents[e.Agent] = true
		case "message":
			agents[e.Agent] = true
			if strings.HasSuffix(e.ID, "/handoff") {
				got.Handoffs = append(got.Handoffs, e.Agent+">"+e.To)
				agents[e.To] = true
			} else {
				got.ModelCalls[e.Agent]++
			}
		case "tool_call":
			agents[e.Agent] = true
			got.ToolCalls = append(got.ToolCalls, e.Agent+":"+e.Tool)
		}
	}
	got.Agents = slices.Sorted(maps.Keys(agents))
	got.Conversation = strings.Join(slices.Sorted(maps.Keys(convs)), " ")
	slices.Sort(got.Spawns)
	slices.Sort(got.Handoffs)
	slices.Sort(got.ToolCalls)
	return got
}

// TestFrameworks imports every run of testdata/frameworks (make
// otel-fixtures; the JavaScript and the Python frameworks), one per
// expected/NAME.json, from JSON (the SDK's JSON serializer) and from the
// collector's protobuf records of the same spans: both give the same
// trace, byte for byte, equal to its golden file, valid under --strict,
// with no diagnostic at all and no prompt text, whose figures (Stats)
// agree with its events, and with exactly the agents, spawns, handoffs,
// tool calls by agent, model calls per agent, tokens and topology of
// expected/NAME.json, and its task and conversation where it names them.
func TestFrameworks(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "frameworks", "expected", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no expected orchestrations: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want expectedRun
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if _, err := os.Stat(filepath.Join("testdata", "frameworks", want.Script)); err != nil {
				t.Errorf("%s: script %q: %v", file, want.Script, err)
			}
			base := filepath.Join("testdata", "frameworks", "runs", name)
			js, err := os.ReadFile(base + ".otlp.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			pb, err := os.ReadFile(base + ".otlp.binpb")
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{ByConversation: want.ByConversation}
			traces, order, diags := importAll(t, base+".otlp.jsonl", js, opts)
			ptraces, porder, pdiags := importAll(t, base+".otlp.binpb", pb, opts)
			for _, d := range append(diags, pdiags...) {
				t.Errorf("diagnostic: %s", d)
			}
			if len(order) != 1 || !slices.Equal(order, porder) {
				t.Fatalf("traces %v from JSON, %v from protobuf; want one, the same", order, porder)
			}
			tr := traces[order[0]]
			if !bytes.Equal(tr.JSON, ptraces[order[0]].JSON) {
				t.Errorf("JSON and protobuf give different traces:\n%s\n%s", tr.JSON, ptraces[order[0]].JSON)
			}
			if bytes.Contains(tr.JSON, []byte("SECRET-")) {
				t.Errorf("the trace carries prompt, completion or tool text:\n%s", tr.JSON)
			}
			res, err := trace.Validate(bytes.NewReader(tr.JSON), trace.Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Findings {
				t.Errorf("finding: %s", f)
			}
			goldenPath := filepath.Join("testdata", "frameworks", "golden", name+".json")
			if golden.Update() && !want.ByConversation { // TestFrameworksConversation writes that golden
				if err := os.WriteFile(goldenPath, tr.JSON, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if g, err := os.ReadFile(goldenPath); err != nil || !bytes.Equal(tr.JSON, g) {
				t.Errorf("%s differs from the import (%v); run make otel-fixtures (or go test ./trace/otlp -run TestFrameworks -update) and review the diff", goldenPath, err)
			}

			got := orchestrationOf(t, tr.JSON)
			if st := tr.Stats; st.Spawns != len(got.Spawns) || st.ToolCalls != len(got.ToolCalls) || st.Tokens != got.Tokens || st.Topology != got.Topology {
				t.Errorf("stats: spawns %d, tool calls %d, tokens %d, topology %s; the events: %d, %d, %d, %s",
					st.Spawns, st.ToolCalls, st.Tokens, st.Topology, len(got.Spawns), len(got.ToolCalls), got.Tokens, got.Topology)
			}
			if st := tr.Stats; st.Messages != len(got.Handoffs)+2*st.Spawns {
				t.Errorf("costs.messages %d, want the inter-agent messages: %d handoffs + %d spawns and their returns", st.Messages, len(got.Handoffs), st.Spawns)
			}
			got.Script, got.ByConversation, got.Note = want.Script, want.ByConversation, want.Note
			if want.Task == "" {
				got.Task = ""
			}
			if want.Conversation == "" {
				got.Conversation = ""
			}
			if want.ModelCalls == nil {
				want.ModelCalls = map[string]int{}
			}
			gj, _ := json.MarshalIndent(got, "", "  ")
			wj, _ := json.MarshalIndent(want, "", "  ")
			if !bytes.Equal(gj, wj) {
				t.Errorf("the import is not the scenario's orchestration:\ngot  %s\nwant %s", gj, wj)
			}
		})
	}
}

// TestGenericHandoffTool: a handoff tool that names only itself
// (handoff_to_agent, ADK's transfer_to_agent) hands off to the agent_name
// of its arguments (gen_ai.tool.call.arguments here; Strands' event is in
// the strands-swarm run), keeping none of the argument text; without
// arguments it is a tool call, never a handoff to an agent named "agent".
func TestGenericHandoffTool(t *testing.T) {
	for _, tc := range []struct {
		args, want string
	}{
		{`{"agent_name": "billing", "message": "SECRET-refund"}`, `"type":"message","agent":"boss","from":"boss","to":"billing"`},
		{"", `"type":"tool_call","agent":"boss","tool":"transfer_to_agent"`},
	} {
		tool := toolSpan(tA, 2, 1, "transfer_to_agent", 10, 20)
		if tc.args != "" {
			tool.attrs["gen_ai.tool.call.arguments"] = tc.args
		}
		traces, _, diags := importAll(t, "h.jsonl", []byte(line(agentSpan(tA, 1, 0, "boss", 0, 100), tool)), Options{})
		if len(diags) > 0 {
			t.Errorf("diagnostics: %v", diags)
		}
		mustValidate(t, traces)
		js := traces[tA].JSON
		if !bytes.Contains(js, []byte(tc.want)) || bytes.Contains(js, []byte(`"to":"agent"`)) || bytes.Contains(js, []byte("SECRET-")) {
			t.Errorf("arguments %q: want %s, no agent named \"agent\", no argument text, in\n%s", tc.args, tc.want, js)
		}
	}
}

// TestDelegationNotTakeover: an agent run through its caller's tool (a
// CrewAI manager's "Delegate work to coworker") is spawned by the caller,
// even when its graph.node.parent_id names the previous agent of the crew,
// as OpenInference's CrewAI instrumentation writes it: the span relation
// says who called it, the parent id is no handoff.
func TestDelegationNotTakeover(t *testing.T) {
	writer := agentSpan(tA, 5, 4, "writer", 50, 60)
	writer.attrs["graph.node.parent_id"] = "researcher"
	spans := []sp{agentSpan(tA, 1, 0, "manager", 0, 100),
		toolSpan(tA, 2, 1, "Delegate work to coworker", 10, 40), agentSpan(tA, 3, 2, "researcher", 11, 39),
		toolSpan(tA, 4, 1, "Delegate work to coworker", 45, 70), writer}
	traces, _, diags := importAll(t, "d.jsonl", []byte(line(spans...)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	got := orchestrationOf(t, traces[tA].JSON)
	if want := []string{"manager>researcher", "manager>writer"}; !slices.Equal(got.Spawns, want) || len(got.Handoffs) > 0 || len(got.ToolCalls) > 0 {
		t.Errorf("spawns %v, handoffs %v, tool calls %v; want spawns %v, no handoff, no tool call", got.Spawns, got.Handoffs, got.ToolCalls, want)
	}
}

// TestNestedModelSpansOneCall: a model span whose nearest mapped ancestor
// is a model span is the same call recorded twice (LlamaIndex's achat
// around the chat it calls, both OpenInference LLM spans): one model call
// event, its tokens counted once, whichever of the two reports them.
func TestNestedModelSpansOneCall(t *testing.T) {
	llm := func(id, parent, start, end int, usage ...int) sp {
		s := sp{trace: tA, id: sid(id), parent: sid(parent), name: "LLM.achat", start: start, end: end,
			attrs: map[string]any{"openinference.span.kind": "LLM", "llm.model_name": "m"}}
		if len(usage) == 2 {
			s.attrs["llm.token_count.prompt"], s.attrs["llm.token_count.completion"] = usage[0], usage[1]
		}
		return s
	}
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100),
		llm(2, 1, 10, 20), llm(3, 2, 11, 19, 40, 10), // usage on the inner span only
		llm(4, 1, 30, 40, 55, 12), llm(5, 4, 31, 39, 55, 12), // on both
		llm(6, 1, 50, 60, 7, 3)} // one span
	traces, _, diags := importAll(t, "n.jsonl", []byte(line(spans...)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	got := orchestrationOf(t, traces[tA].JSON)
	if got.ModelCalls["boss"] != 3 || got.Tokens != 40+10+55+12+7+3 {
		t.Errorf("model calls %v, tokens %d; want boss: 3, %d", got.ModelCalls, got.Tokens, 40+10+55+12+7+3)
	}
}

// TestLLMSpanWithoutCallNotModelCall: an OpenInference LLM span that
// records no message, no usage and no error (LlamaIndex's
// _prepare_chat_with_tools, which builds the call's messages and tools) is
// a step of the framework's loop, not a model call; an LLM span with only
// messages, or only an error, still is one.
func TestLLMSpanWithoutCallNotModelCall(t *testing.T) {
	llm := func(id, start int, attrs map[string]any) sp {
		s := sp{trace: tA, id: sid(id), parent: sid(1), name: "LLM.chat", start: start, end: start + 5,
			attrs: map[string]any{"openinference.span.kind": "LLM", "llm.model_name": "m"}}
		maps.Copy(s.attrs, attrs)
		return s
	}
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100),
		llm(2, 10, map[string]any{"input.value": `{"tools": ["SECRET-tool"]}`}), // prepares the call below
		llm(3, 20, map[string]any{"llm.output_messages.0.message.role": "assistant"}),
		llm(4, 30, map[string]any{"llm.input_messages.0.message.role": "user"}),
		llm(5, 40, map[string]any{"error.type": "timeout"})}
	traces, _, diags := importAll(t, "p.jsonl", []byte(line(spans...)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	if got := orchestrationOf(t, traces[tA].JSON); got.ModelCalls["boss"] != 3 {
		t.Errorf("model calls %v; want boss: 3 (not the span that prepares a call)", got.ModelCalls)
	}
}

// TestHandoffWithoutAgentSpans: a workflow that runs its agents as steps
// of one run, no span per agent (LlamaIndex's AgentWorkflow), hands off
// with a tool whose JSON arguments (OpenInference's input.value,
// {"kwargs": {...}}) name the target in to_agent: the steps after the
// handoff are the target's, the argument text is not kept, and the
// agent before it is the workflow.
func TestHandoffWithoutAgentSpans(t *testing.T) {
	chain := func(id, start, end int) sp {
		return sp{trace: tA, id: sid(id), parent: sid(1), name: "AgentWorkflow.run_agent_step", start: start, end: end,
			attrs: map[string]any{"openinference.span.kind": "CHAIN"}}
	}
	llm := func(id, parent, start int) sp {
		return sp{trace: tA, id: sid(id), parent: sid(parent), name: "LLM.achat", start: start, end: start + 2,
			attrs: map[string]any{"openinference.span.kind": "LLM", "llm.token_count.prompt": 10, "llm.token_count.completion": 1}}
	}
	tool := func(id, parent int, name string, start int, args string) sp {
		return sp{trace: tA, id: sid(id), parent: sid(parent), name: "FunctionTool.acall", start: start, end: start + 2,
			attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": name, "input.value": args,
				"tool.parameters": `{"properties": {"to_agent": {"type": "string"}}, "type": "object"}`}}
	}
	root := sp{trace: tA, id: sid(1), name: "AgentWorkflow.run", start: 0, end: 100,
		attrs: map[string]any{"openinference.span.kind": "CHAIN", "gen_ai.workflow.name": "desk"}}
	spans := []sp{root,
		chain(2, 10, 15), llm(3, 2, 11),
		chain(4, 20, 30), tool(5, 4, "handoff", 21, `{"kwargs": {"to_agent": "billing", "reason": "SECRET-why", "ctx": "<Context>"}}`),
		chain(6, 40, 50), llm(7, 6, 41), tool(8, 6, "refund", 45, `{"kwargs": {"invoice": "SECRET-7"}}`)}
	traces, _, diags := importAll(t, "w.jsonl", []byte(line(spans...)), Options{})
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	mustValidate(t, traces)
	js := traces[tA].JSON
	got := orchestrationOf(t, js)
	if !slices.Equal(got.Handoffs, []string{"desk>billing"}) || !slices.Equal(got.ToolCalls, []string{"billing:refund"}) ||
		got.ModelCalls["desk"] != 1 || got.ModelCalls["billing"] != 1 || bytes.Contains(js, []byte("SECRET-")) {
		t.Errorf("handoffs %v, tool calls %v, model calls %v; want desk>billing, billing:refund, one call each, no argument text in\n%s",
			got.Handoffs, got.ToolCalls, got.ModelCalls, js)
	}
}
