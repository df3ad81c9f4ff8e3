//go:build !(js && wasm)

package fixturegen

import (
	"cmp"
	"context"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// dialect is how one convention spells each kind of span.
type dialect struct {
	agent    func(name, parent string) (string, []attribute.KeyValue)
	workflow func(name string) (string, []attribute.KeyValue)
	chat     func(model string, in, out int) (string, []attribute.KeyValue)
	tool     func(name string) (string, []attribute.KeyValue)
	handoff  func(target string) (string, []attribute.KeyValue)
	// evalEvents: evaluations are gen_ai.evaluation.result span events;
	// otherwise Agent Lightning reward spans.
	evalEvents bool
}

func dialects() map[string]dialect {
	return map[string]dialect{"genai": genAI(), "legacy": legacy(), "openinference": openInference()}
}

func str(k, v string) attribute.KeyValue { return attribute.String(k, v) }
func num(k string, v int) attribute.KeyValue {
	return attribute.Int(k, v)
}

// genAI is the current GenAI semantic conventions.
func genAI() dialect {
	return dialect{
		agent: func(name, _ string) (string, []attribute.KeyValue) {
			return "invoke_agent " + name, []attribute.KeyValue{str("gen_ai.operation.name", "invoke_agent"),
				str("gen_ai.agent.name", name), str("gen_ai.agent.id", "agent-"+name), str("gen_ai.provider.name", "openai"),
				str("gen_ai.system_instructions", `[{"type":"text","content":"You are `+name+`. `+Secret+`"}]`)}
		},
		workflow: func(name string) (string, []attribute.KeyValue) {
			return "invoke_workflow " + name, []attribute.KeyValue{str("gen_ai.operation.name", "invoke_workflow"), str("gen_ai.workflow.name", name)}
		},
		chat: func(model string, in, out int) (string, []attribute.KeyValue) {
			return "chat " + model, []attribute.KeyValue{str("gen_ai.operation.name", "chat"), str("gen_ai.provider.name", "openai"),
				str("gen_ai.request.model", model), num("gen_ai.usage.input_tokens", in), num("gen_ai.usage.output_tokens", out),
				str("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+Secret+`"}]}]`),
				str("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+Secret+`"}]}]`)}
		},
		tool: func(name string) (string, []attribute.KeyValue) {
			return "execute_tool " + name, []attribute.KeyValue{str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", name),
				str("gen_ai.tool.call.id", "call-"+name), str("gen_ai.tool.call.arguments", `{"q":"`+Secret+`"}`),
				str("gen_ai.tool.call.result", Secret)}
		},
		handoff: func(target string) (string, []attribute.KeyValue) {
			return "execute_tool transfer_to_" + target, []attribute.KeyValue{str("gen_ai.operation.name", "execute_tool"),
				str("gen_ai.tool.name", "transfer_to_"+target), str("gen_ai.transfer.target.name", target),
				str("gen_ai.transfer.mode", "handoff"), str("gen_ai.tool.call.arguments", `{"reason":"`+Secret+`"}`)}
		},
		evalEvents: true,
	}
}

// legacy is conventions 1.36 and earlier as OpenLLMetry writes them:
// gen_ai.system, gen_ai.prompt.N.* and gen_ai.completion.N.*, usage as
// prompt and completion tokens, and traceloop span kinds for agents,
// tools and workflows.
func legacy() dialect {
	return dialect{
		agent: func(name, _ string) (string, []attribute.KeyValue) {
			return name + ".agent", []attribute.KeyValue{str("traceloop.span.kind", "agent"), str("traceloop.entity.name", name),
				str("traceloop.entity.input", `{"task":"`+Secret+`"}`)}
		},
		workflow: func(name string) (string, []attribute.KeyValue) {
			return name + ".workflow", []attribute.KeyValue{str("traceloop.span.kind", "workflow"), str("traceloop.entity.name", name)}
		},
		chat: func(model string, in, out int) (string, []attribute.KeyValue) {
			return "openai.chat", []attribute.KeyValue{str("gen_ai.system", "openai"), str("llm.request.type", "chat"),
				str("gen_ai.request.model", model), num("gen_ai.usage.prompt_tokens", in), num("gen_ai.usage.completion_tokens", out),
				num("llm.usage.total_tokens", in+out),
				str("gen_ai.prompt.0.role", "user"), str("gen_ai.prompt.0.content", Secret),
				str("gen_ai.completion.0.role", "assistant"), str("gen_ai.completion.0.content", Secret)}
		},
		tool: func(name string) (string, []attribute.KeyValue) {
			return name + ".tool", []attribute.KeyValue{str("traceloop.span.kind", "tool"), str("traceloop.entity.name", name),
				str("traceloop.entity.input", `{"q":"`+Secret+`"}`), str("traceloop.entity.output", Secret)}
		},
		handoff: func(target string) (string, []attribute.KeyValue) {
			return "transfer_to_" + target + ".tool", []attribute.KeyValue{str("traceloop.span.kind", "tool"),
				str("traceloop.entity.name", "transfer_to_"+target), str("traceloop.entity.input", Secret)}
		},
	}
}

// openInference is Arize's OpenInference conventions.
func openInference() dialect {
	return dialect{
		agent: func(name, parent string) (string, []attribute.KeyValue) {
			a := []attribute.KeyValue{str("openinference.span.kind", "AGENT"), str("agent.name", name), str("graph.node.id", name),
				str("input.value", Secret), str("output.value", Secret)}
			if parent != "" {
				a = append(a, str("graph.node.parent_id", parent))
			}
			return name, a
		},
		workflow: func(name string) (string, []attribute.KeyValue) {
			return name, []attribute.KeyValue{str("openinference.span.kind", "CHAIN"), str("graph.node.id", name), str("input.value", Secret)}
		},
		chat: func(model string, in, out int) (string, []attribute.KeyValue) {
			return "ChatCompletion", []attribute.KeyValue{str("openinference.span.kind", "LLM"), str("llm.model_name", model),
				str("llm.provider", "openai"), num("llm.token_count.prompt", in), num("llm.token_count.completion", out),
				num("llm.token_count.total", in+out),
				str("llm.input_messages.0.message.role", "user"), str("llm.input_messages.0.message.content", Secret),
				str("llm.output_messages.0.message.role", "assistant"), str("llm.output_messages.0.message.content", Secret),
				str("input.value", Secret), str("output.value", Secret)}
		},
		tool: func(name string) (string, []attribute.KeyValue) {
			return name, []attribute.KeyValue{str("openinference.span.kind", "TOOL"), str("tool.name", name),
				str("tool.parameters", `{"q":"`+Secret+`"}`), str("input.value", Secret), str("output.value", Secret)}
		},
		handoff: func(target string) (string, []attribute.KeyValue) {
			return "transfer_to_" + target, []attribute.KeyValue{str("openinference.span.kind", "TOOL"),
				str("tool.name", "transfer_to_"+target), str("input.value", Secret)}
		},
		evalEvents: true,
	}
}

// planned is one span of the simulated run: times are milliseconds after
// base, parent an index into the plan (-1 for a root).
type planned struct {
	parent     int
	name       string
	attrs      []attribute.KeyValue
	start, end int
	evals      []eval
	ctx        context.Context
	span       trace.Span
}

type eval struct {
	name  string
	score float64
	at    int
}

type sim struct {
	tr trace.Tracer
	d  dialect
}

// run starts every planned span in start order and ends them in end order
// (children before their parents at equal times), as a live run would, so
// that the SDK exports them in the order they end and the two traces'
// spans interleave.
func (s sim) run(ctx context.Context) {
	plan := s.plan()
	starts := make([]int, len(plan))
	for i := range starts {
		starts[i] = i
	}
	slices.SortStableFunc(starts, func(a, b int) int { return cmp.Compare(plan[a].start, plan[b].start) })
	for _, i := range starts {
		p := &plan[i]
		pctx := ctx
		if p.parent >= 0 {
			pctx = plan[p.parent].ctx
		}
		p.ctx, p.span = s.tr.Start(pctx, p.name, trace.WithTimestamp(at(p.start)), trace.WithAttributes(p.attrs...))
		for _, e := range p.evals {
			p.span.AddEvent("gen_ai.evaluation.result", trace.WithTimestamp(at(e.at)), trace.WithAttributes(
				str("gen_ai.evaluation.name", e.name), attribute.Float64("gen_ai.evaluation.score.value", e.score),
				str("gen_ai.evaluation.explanation", Secret)))
		}
	}
	ends := make([]int, len(plan))
	for i := range ends {
		ends[i] = i
	}
	slices.SortStableFunc(ends, func(a, b int) int {
		if c := cmp.Compare(plan[a].end, plan[b].end); c != 0 {
			return c
		}
		return cmp.Compare(b, a) // later-planned spans are deeper
	})
	for _, i := range ends {
		plan[i].span.End(trace.WithTimestamp(at(plan[i].end)))
	}
}

// plan is the simulated run. Trace 1: an orchestrator plans, spawns a
// researcher (two model calls, two tools, one HTTP span no convention
// describes) and a coder (a model call, a tool), then summarizes; two
// evaluations judge it. Trace 2, 400 ms later: a support workflow runs a
// triage agent that hands off to a billing agent, which calls a tool; a
// reward judges it.
func (s sim) plan() []planned {
	d := s.d
	var plan []planned
	add := func(parent int, name string, attrs []attribute.KeyValue, start, end int) int {
		plan = append(plan, planned{parent: parent, name: name, attrs: attrs, start: start, end: end})
		return len(plan) - 1
	}
	agent := func(parent int, name, parentName string, start, end int) int {
		n, a := d.agent(name, parentName)
		return add(parent, n, a, start, end)
	}
	chat := func(parent, in, out, start, end int) int {
		n, a := d.chat("gpt-4o-mini", in, out)
		return add(parent, n, a, start, end)
	}
	tool := func(parent int, name string, start, end int) int {
		n, a := d.tool(name)
		return add(parent, n, a, start, end)
	}
	reward := func(parent int, name string, value string, start int) {
		add(parent, "agentlightning.annotation", []attribute.KeyValue{str("agentlightning.reward.0.name", name),
			str("agentlightning.reward.0.value", value)}, start, start+1)
	}

	orch := agent(-1, "orchestrator", "", 0, 10000)
	chat(orch, 120, 40, 100, 600)
	res := agent(orch, "researcher", "orchestrator", 1000, 6000)
	chat(res, 300, 80, 1100, 1800)
	search := tool(res, "web_search", 2000, 3000)
	add(search, "GET", []attribute.KeyValue{str("http.request.method", "GET"), str("url.full", "https://example.org/?q="+Secret)}, 2050, 2900)
	tool(res, "fetch_page", 3100, 3600)
	chat(res, 900, 150, 3800, 4500)
	cod := agent(orch, "coder", "orchestrator", 1200, 5500)
	chat(cod, 250, 120, 1300, 2000)
	tool(cod, "run_python", 2500, 4000)
	chat(orch, 1200, 300, 6500, 7500)
	if d.evalEvents {
		plan[orch].evals = []eval{{"task_success", 0.8, 9800}, {"relevance", 0.9, 9900}}
	} else {
		reward(orch, "task_success", "0.8", 9800)
	}

	wn, wa := d.workflow("support")
	wf := add(-1, wn, wa, 400, 5400)
	tri := agent(wf, "triage", "support", 500, 1900)
	chat(tri, 200, 30, 600, 1200)
	hn, ha := d.handoff("billing")
	add(tri, hn, ha, 1300, 1400)
	bill := agent(wf, "billing", "support", 1900, 4900)
	chat(bill, 400, 60, 2000, 2900)
	tool(bill, "issue_refund", 3000, 3900)
	chat(bill, 500, 90, 4000, 4800)
	reward(wf, "resolved", "1", 5200)
	return plan
}
