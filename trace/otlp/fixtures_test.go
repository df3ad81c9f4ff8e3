package otlp

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp/internal/fixturegen"

	"github.com/masrl/masrl/internal/golden"
)

// importAll imports data and returns the traces by id and every diagnostic.
func importAll(t testing.TB, name string, data []byte, opts Options) (map[string]*Trace, []string, []Diagnostic) {
	t.Helper()
	traces := map[string]*Trace{}
	var order []string
	var diags []Diagnostic
	im := NewImporter(opts, func(tr *Trace) error {
		if _, dup := traces[tr.ID]; dup {
			t.Errorf("trace %s written twice", tr.ID)
		}
		traces[tr.ID] = tr
		order = append(order, tr.ID)
		return nil
	}, func(d Diagnostic) { diags = append(diags, d) })
	if err := im.Read(name, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	return traces, order, diags
}

// spanFigures are the figures of one OTel trace, computed from the raw
// spans, independently of the importer.
type spanFigures struct {
	tokens, toolCalls, agents, rootAgents int
	// agents by name, and the agents handoffs name as their target: an
	// agent that takes control by a handoff is not spawned.
	agentNames, handoffTargets map[string]int
	first, last                uint64
	rewards                    map[string]float64
}

func attrMap(v any) map[string]any {
	m := map[string]any{}
	list, _ := v.([]any)
	for _, a := range list {
		kv := a.(map[string]any)
		val := kv["value"].(map[string]any)
		for _, x := range val {
			m[kv["key"].(string)] = x
		}
	}
	return m
}

func asFloat(t *testing.T, v any) float64 {
	switch x := v.(type) {
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	case float64:
		return x
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

func figures(t *testing.T, data []byte) map[string]*spanFigures {
	out := map[string]*spanFigures{}
	for line := range bytes.Lines(data) {
		var req struct {
			ResourceSpans []struct {
				ScopeSpans []struct {
					Spans []struct {
						TraceID            string `json:"traceId"`
						ParentSpanID       string `json:"parentSpanId"`
						Start              string `json:"startTimeUnixNano"`
						End                string `json:"endTimeUnixNano"`
						Attributes, Events any
					}
				}
			}
		}
		if err := json.Unmarshal(line, &req); err != nil {
			t.Fatal(err)
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					f := out[s.TraceID]
					if f == nil {
						f = &spanFigures{first: math.MaxUint64, rewards: map[string]float64{}, agentNames: map[string]int{}, handoffTargets: map[string]int{}}
						out[s.TraceID] = f
					}
					start, _ := strconv.ParseUint(s.Start, 10, 64)
					end, _ := strconv.ParseUint(s.End, 10, 64)
					f.first, f.last = min(f.first, start), max(f.last, end)
					a := attrMap(s.Attributes)
					for _, k := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.prompt_tokens",
						"gen_ai.usage.completion_tokens", "llm.token_count.prompt", "llm.token_count.completion"} {
						if v, ok := a[k]; ok {
							f.tokens += int(asFloat(t, v))
						}
					}
					target, transfer := a["gen_ai.transfer.target.name"].(string)
					if tn, _ := a["tool.name"].(string); strings.HasPrefix(tn, "transfer_to_") {
						target = strings.TrimPrefix(tn, "transfer_to_")
					}
					if target != "" {
						f.handoffTargets[target]++
					}
					isTool := a["gen_ai.operation.name"] == "execute_tool" || a["openinference.span.kind"] == "TOOL" || a["traceloop.span.kind"] == "tool"
					name, _ := a["tool.name"].(string)
					if isTool && !transfer && !strings.HasPrefix(name, "transfer_to_") {
						f.toolCalls++
					}
					if a["gen_ai.operation.name"] == "invoke_agent" || a["openinference.span.kind"] == "AGENT" || a["traceloop.span.kind"] == "agent" {
						f.agents++
						for _, k := range []string{"gen_ai.agent.name", "agent.name", "traceloop.entity.name", "graph.node.id"} {
							if n, ok := a[k].(string); ok {
								f.agentNames[n]++
								break
							}
						}
						if s.ParentSpanID == "" {
							f.rootAgents++
						}
					}
					if n, ok := a["agentlightning.reward.0.name"].(string); ok {
						f.rewards[n] = asFloat(t, a["agentlightning.reward.0.value"])
					}
					evs, _ := s.Events.([]any)
					for _, e := range evs {
						em := e.(map[string]any)
						if em["name"] == "gen_ai.evaluation.result" {
							ea := attrMap(em["attributes"])
							f.rewards[ea["gen_ai.evaluation.name"].(string)] = asFloat(t, ea["gen_ai.evaluation.score.value"])
						}
					}
				}
			}
		}
	}
	return out
}

// TestImportFixtures imports every fixture and checks each trace: it
// validates, equals its golden file, its token, tool-call, wall-time,
// reward and spawn figures equal the spans', and no planted secret reaches
// it or a diagnostic.
func TestImportFixtures(t *testing.T) {
	for _, d := range fixturegen.Dialects() {
		t.Run(d, func(t *testing.T) {
			name := filepath.Join("testdata", d+".otlp.jsonl")
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			traces, order, diags := importAll(t, name, data, Options{})
			want := figures(t, data)
			if len(traces) != len(want) || len(traces) != 2 {
				t.Fatalf("got %d traces, the spans have %d", len(traces), len(want))
			}
			var allDiags strings.Builder
			for _, dg := range diags {
				allDiags.WriteString(dg.String() + "\n")
				if dg.Severity == Error {
					t.Errorf("error on generated input: %s", dg)
				}
			}
			if strings.Contains(allDiags.String(), fixturegen.Secret) {
				t.Errorf("a diagnostic carries prompt text:\n%s", allDiags.String())
			}
			for _, id := range order {
				tr := traces[id]
				if bytes.Contains(tr.JSON, []byte(fixturegen.Secret)) {
					t.Errorf("trace %s carries prompt text", id)
				}
				res, err := trace.Validate(bytes.NewReader(tr.JSON), trace.Options{Strict: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range res.Findings {
					t.Errorf("trace %s: %s", id, f)
				}
				f := want[id]
				if f == nil {
					t.Fatalf("trace %s is not in the spans", id)
				}
				rep := res.Report
				if rep.TraceID != id {
					t.Errorf("trace_id %q, want the OTel trace id %s", rep.TraceID, id)
				}
				if int(rep.Costs.Tokens) != f.tokens {
					t.Errorf("%s: tokens %v, spans say %d", id, rep.Costs.Tokens, f.tokens)
				}
				if rep.ToolCalls != f.toolCalls || rep.Costs.ToolCalls == nil || int(*rep.Costs.ToolCalls) != f.toolCalls {
					t.Errorf("%s: tool calls %d (stated %v), spans say %d", id, rep.ToolCalls, rep.Costs.ToolCalls, f.toolCalls)
				}
				if wall := float64(f.last-f.first) / 1e9; math.Abs(rep.Costs.WallClockS-wall) > 1e-9 {
					t.Errorf("%s: wall clock %v s, spans say %v s", id, rep.Costs.WallClockS, wall)
				}
				taken := 0
				for n := range f.handoffTargets {
					taken += f.agentNames[n]
				}
				if spawns := f.agents - f.rootAgents - taken; rep.Spawns != spawns {
					t.Errorf("%s: %d spawns, spans have %d agents under another span, %d of them taking over by a handoff", id, rep.Spawns, spawns, taken)
				}
				got := map[string]float64{}
				for _, c := range rep.Rewards {
					got[c.Name] = c.Value
				}
				if len(got) != len(f.rewards) || len(got) == 0 {
					t.Errorf("%s: rewards %v, spans say %v", id, got, f.rewards)
				}
				for k, v := range f.rewards {
					if got[k] != v {
						t.Errorf("%s: reward %s = %v, spans say %v", id, k, got[k], v)
					}
				}
				golden.Check(t, filepath.Join("testdata", "golden", d, id+".json"), tr.JSON)
			}
			// The HTTP span no convention describes is reported, with its
			// position, not dropped silently.
			if !slices.ContainsFunc(diags, func(dg Diagnostic) bool {
				return strings.Contains(dg.Message, `"GET"`) && dg.Line > 0 && dg.SpanID != ""
			}) {
				t.Errorf("no positioned warning for the unmapped HTTP span:\n%s", allDiags.String())
			}
		})
	}
}
