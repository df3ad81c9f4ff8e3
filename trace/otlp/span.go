package otlp

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// span is what the importer keeps of an OTel span: ids, times and the few
// attributes the mapping reads. Everything else, prompt and completion text
// above all, is skipped by the reader and never held.
type span struct {
	trace      [16]byte
	id, parent [8]byte
	hasParent  bool
	start, end uint64 // Unix nanoseconds
	name       string

	op, oiKind, system string // gen_ai.operation.name, openinference.span.kind, gen_ai.system/provider.name
	tlKind, tlName     string // OpenLLMetry's traceloop.span.kind and traceloop.entity.name
	agentName, agentID string
	toolName, model    string
	transfer           string // gen_ai.transfer.target.name: a handoff
	// argTarget is the agent_name or to_agent argument of a tool call
	// (Strands' handoff_to_agent, ADK's transfer_to_agent, LlamaIndex's
	// handoff), read from the call's arguments; nothing else of the
	// arguments is kept.
	argTarget string
	// messages is set when an OpenInference LLM span records the
	// messages of a call (llm.input_messages or llm.output_messages): a
	// span of kind LLM with neither and no token count prepares a call
	// (LlamaIndex's _prepare_chat_with_tools) rather than making one.
	messages bool
	// messaging is set by messaging.operation: a message-passing runtime's
	// send, publish or process span (AutoGen's agent runtime).
	messaging bool
	// ownUsage is set on smolagents' agent spans (OpenInference, marked by
	// smolagents.max_steps): their token counts are the agent's own steps,
	// without its managed agents'.
	ownUsage           bool
	workflow           string
	nodeID, nodeParent string // OpenInference graph.node.id / parent_id
	in, out            int64
	hasTokens          bool
	// Token details already included in in and out: cache reads and
	// writes (input) and reasoning (output); costs report them apart.
	cacheRead, cacheWrite, reasoning int64
	hasDetails                       bool

	spanKind     int8    // OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer
	errType      string  // error.type, else an exception event's exception.type, else "error" for an error status
	aiOp         string  // the AI SDK's ai.operationId (ai.generateText, ai.toolCall, …)
	functionID   string  // the AI SDK's ai.telemetry.functionId
	toolCallID   string  // gen_ai.tool.call.id, OpenInference tool_call.id, ai.toolCall.id
	conversation string  // gen_ai.conversation.id, OpenInference session.id
	transferMode string  // gen_ai.transfer.mode: return_to_caller or pass_control
	graphNode    string  // LangGraph's langgraph_node from OpenInference metadata
	evals        []score // gen_ai.evaluation.result span events
	rewards      []score // Agent Lightning reward attributes
	links        []link
	otherEvents  []string // span events the mapping has no place for
	service      string   // resource service.name
	notes        []string // attributes that were present but unusable

	file int32 // index into Importer.files
	line int32 // the line of OTLP/JSON, or the record of protobuf
	off  int64 // protobuf: the record's byte offset
	seq  int64 // arrival order, for deterministic tie breaks
}

type score struct {
	name  string
	value float64
	at    uint64 // when it was given (event time or span end), for "latest wins"
}

type link struct {
	trace [16]byte
	span  [8]byte
}

func (s *span) traceHex() string { return hex.EncodeToString(s.trace[:]) }
func (s *span) idHex() string    { return hex.EncodeToString(s.id[:]) }

// attrValue is one decoded attribute value of the kinds the mapping reads.
type attrValue struct {
	kind byte // 's' string, 'i' integer, 'd' double, 'b' bool, 0 other
	s    string
	i    int64
	d    float64
}

func (v attrValue) number() (float64, bool) {
	switch v.kind {
	case 'i':
		return float64(v.i), true
	case 'd':
		return v.d, true
	case 's':
		f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64)
		return f, err == nil
	}
	return 0, false
}

func (v attrValue) integer() (int64, bool) {
	switch v.kind {
	case 'i':
		return v.i, true
	case 'd':
		if v.d == float64(int64(v.d)) {
			return int64(v.d), true
		}
	case 's':
		n, err := strconv.ParseInt(strings.TrimSpace(v.s), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// wantAttr reports whether the mapping reads a span attribute; the reader
// skips the value of every other key without decoding it.
func wantAttr(key string) bool {
	switch key {
	case "gen_ai.operation.name", "openinference.span.kind", "gen_ai.system", "gen_ai.provider.name",
		"gen_ai.agent.name", "agent.name", "gen_ai.agent.id",
		"gen_ai.tool.name", "tool.name",
		"gen_ai.request.model", "gen_ai.response.model", "llm.model_name",
		"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
		"gen_ai.usage.prompt_tokens", "gen_ai.usage.completion_tokens",
		"llm.token_count.prompt", "llm.token_count.completion",
		"gen_ai.transfer.target.name", "gen_ai.workflow.name",
		"graph.node.id", "graph.node.parent_id",
		"traceloop.span.kind", "traceloop.entity.name",
		"gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.reasoning.output_tokens",
		"llm.token_count.prompt_details.cache_read", "llm.token_count.prompt_details.cache_write", "llm.token_count.completion_details.reasoning",
		"ai.usage.inputTokenDetails.cacheReadTokens", "ai.usage.inputTokenDetails.cacheWriteTokens", "ai.usage.outputTokenDetails.reasoningTokens",
		"ai.operationId", "ai.telemetry.functionId", "ai.toolCall.name", "ai.toolCall.id", "ai.model.id",
		"gen_ai.tool.call.id", "tool_call.id", "gen_ai.conversation.id", "session.id",
		"gen_ai.transfer.mode", "error.type", "metadata",
		"gen_ai.tool.call.arguments", "tool.parameters", "input.value", "messaging.operation", "smolagents.max_steps",
		"llm.input_messages.0.message.role", "llm.output_messages.0.message.role":
		return true
	}
	return strings.HasPrefix(key, rewardPrefix)
}

const rewardPrefix = "agentlightning.reward."

// setAttr stores one wanted attribute. Values of the wrong type are noted:
// the span is still mapped, without that attribute.
func (s *span) setAttr(key string, v attrValue, al *alRewards) {
	str := func(dst *string) {
		if v.kind == 's' {
			*dst = v.s
		} else {
			s.notes = append(s.notes, "attribute "+key+" is not a string")
		}
	}
	tokens := func(dst *int64) {
		n, ok := v.integer()
		if !ok || n < 0 {
			s.notes = append(s.notes, "attribute "+key+" is not a non-negative integer: its tokens are not counted")
			return
		}
		*dst = n
		s.hasTokens = true
	}
	detail := func(dst *int64) {
		n, ok := v.integer()
		if !ok || n < 0 {
			s.notes = append(s.notes, "attribute "+key+" is not a non-negative integer: not counted")
			return
		}
		*dst = n
		s.hasDetails = true
	}
	switch key {
	case "gen_ai.usage.cache_read.input_tokens", "llm.token_count.prompt_details.cache_read", "ai.usage.inputTokenDetails.cacheReadTokens":
		detail(&s.cacheRead)
	case "gen_ai.usage.cache_creation.input_tokens", "llm.token_count.prompt_details.cache_write", "ai.usage.inputTokenDetails.cacheWriteTokens":
		detail(&s.cacheWrite)
	case "gen_ai.usage.reasoning.output_tokens", "llm.token_count.completion_details.reasoning", "ai.usage.outputTokenDetails.reasoningTokens":
		detail(&s.reasoning)
	case "ai.operationId":
		str(&s.aiOp)
	case "ai.telemetry.functionId":
		str(&s.functionID)
	case "ai.toolCall.name":
		str(&s.toolName)
	case "ai.model.id":
		if s.model == "" {
			str(&s.model)
		}
	case "gen_ai.tool.call.id", "tool_call.id", "ai.toolCall.id":
		str(&s.toolCallID)
	case "gen_ai.conversation.id", "session.id":
		str(&s.conversation)
	case "gen_ai.transfer.mode":
		str(&s.transferMode)
	case "error.type":
		str(&s.errType)
	case "metadata":
		// OpenInference's metadata is a JSON object in a string; only
		// LangGraph's node name is read from it, nothing else is kept.
		if v.kind == 's' && strings.Contains(v.s, `"langgraph_node"`) {
			var m struct {
				Node string `json:"langgraph_node"`
			}
			if json.Unmarshal([]byte(v.s), &m) == nil {
				s.graphNode = m.Node
			}
		}
	case "gen_ai.tool.call.arguments", "tool.parameters", "input.value":
		// OpenInference's input.value of a LlamaIndex tool span is the
		// call's arguments as JSON ({"kwargs": {...}}); only a handoff
		// target is read from it, as from the other two.
		if t := agentNameArg(v); t != "" && s.argTarget == "" {
			s.argTarget = t
		}
	case "llm.input_messages.0.message.role", "llm.output_messages.0.message.role":
		s.messages = true
	case "messaging.operation":
		s.messaging = true
	case "smolagents.max_steps":
		s.ownUsage = true
	case "gen_ai.operation.name":
		str(&s.op)
	case "openinference.span.kind":
		str(&s.oiKind)
		s.oiKind = strings.ToUpper(s.oiKind)
	case "gen_ai.system", "gen_ai.provider.name":
		if s.system == "" {
			str(&s.system)
		}
	case "gen_ai.agent.name", "agent.name":
		str(&s.agentName)
	case "gen_ai.agent.id":
		str(&s.agentID)
	case "gen_ai.tool.name", "tool.name":
		str(&s.toolName)
	case "gen_ai.request.model", "llm.model_name":
		str(&s.model)
	case "gen_ai.response.model":
		if s.model == "" {
			str(&s.model)
		}
	case "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt":
		tokens(&s.in)
	case "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion":
		tokens(&s.out)
	case "gen_ai.transfer.target.name":
		str(&s.transfer)
	case "gen_ai.workflow.name":
		str(&s.workflow)
	case "traceloop.span.kind":
		str(&s.tlKind)
	case "traceloop.entity.name":
		str(&s.tlName)
	case "graph.node.id":
		str(&s.nodeID)
	case "graph.node.parent_id":
		str(&s.nodeParent)
	default:
		// Agent Lightning: agentlightning.reward.N.name / .N.value, or
		// agentlightning.reward.primary.
		rest := strings.TrimPrefix(key, rewardPrefix)
		if rest == "primary" {
			if f, ok := v.number(); ok {
				al.set(-1, "primary", f, true)
			}
			return
		}
		idx, field, ok := strings.Cut(rest, ".")
		n, err := strconv.Atoi(idx)
		if !ok || err != nil || n < 0 {
			return // metadata and other reward attributes carry no value
		}
		switch field {
		case "name":
			if v.kind == 's' {
				al.set(n, v.s, 0, false)
			}
		case "value":
			if f, ok := v.number(); ok {
				al.set(n, "", f, true)
			} else {
				s.notes = append(s.notes, "attribute "+key+" is not a number")
			}
		}
	}
}

// alRewards collects Agent Lightning's numbered reward attributes of one
// span (agentlightning.reward.N.name and .N.value may come in any order).
type alRewards struct {
	entries []alReward
}

type alReward struct {
	n        int
	name     string
	value    float64
	hasValue bool
}

func (a *alRewards) set(n int, name string, value float64, hasValue bool) {
	for i := range a.entries {
		if a.entries[i].n == n {
			if name != "" {
				a.entries[i].name = name
			}
			if hasValue {
				a.entries[i].value, a.entries[i].hasValue = value, true
			}
			return
		}
	}
	a.entries = append(a.entries, alReward{n, name, value, hasValue})
}

// scores returns the rewards with a value, in attribute-index order; a
// reward without a name is called "reward" (N = 0) or "reward_N".
func (a *alRewards) scores(at uint64) []score {
	var out []score
	slices.SortFunc(a.entries, func(x, y alReward) int { return cmp.Compare(x.n, y.n) })
	for _, e := range a.entries {
		if !e.hasValue {
			continue
		}
		name := e.name
		if name == "" {
			name = "reward"
			if e.n > 0 {
				name = "reward_" + strconv.Itoa(e.n)
			}
		}
		out = append(out, score{name: name, value: e.value, at: at})
	}
	return out
}

// wantEventAttr reports whether the mapping reads a span event attribute.
func wantEventAttr(key string) bool {
	return key == "gen_ai.evaluation.name" || key == "gen_ai.evaluation.score.value" || key == "exception.type" ||
		key == "content"
}

// agentNameArg is the agent a tool call's arguments (a JSON object in a
// string) hand off to, or "": the target of a handoff tool that names
// only itself, its agent_name (Strands' handoff_to_agent, ADK's
// transfer_to_agent) or to_agent (LlamaIndex's handoff), at the top or
// under "kwargs" (OpenInference's input.value of a LlamaIndex tool). The
// arguments are not kept.
func agentNameArg(v attrValue) string {
	if v.kind != 's' || (!strings.Contains(v.s, `"agent_name"`) && !strings.Contains(v.s, `"to_agent"`)) {
		return ""
	}
	type target struct {
		Name string `json:"agent_name"`
		To   string `json:"to_agent"`
	}
	var args struct {
		target
		Kwargs *target `json:"kwargs"`
	}
	if json.Unmarshal([]byte(v.s), &args) != nil {
		return ""
	}
	if args.Kwargs != nil && args.Name == "" && args.To == "" {
		args.target = *args.Kwargs
	}
	return truncate(cmp.Or(args.Name, args.To), 200)
}

// eventAttrs are the attributes of one span event the mapping reads.
type eventAttrs struct {
	evalName string
	score    attrValue
	excType  string // exception.type of an exception event
	target   string // the agent_name argument in a gen_ai.tool.message's content
}

func (e *eventAttrs) set(key string, v attrValue) {
	if key == "gen_ai.evaluation.name" && v.kind == 's' {
		e.evalName = v.s
	} else if key == "gen_ai.evaluation.score.value" {
		e.score = v
	} else if key == "exception.type" && v.kind == 's' {
		e.excType = v.s
	} else if key == "content" {
		e.target = agentNameArg(v)
	}
}

// contentEvent reports span events that carry prompt or completion text
// (conventions 1.36 and earlier, and the newer message events): the
// mapping leaves them out by design, content_ref points at the span.
func contentEvent(name string) bool {
	return strings.HasPrefix(name, "gen_ai.content.") || strings.HasSuffix(name, ".message") ||
		name == "gen_ai.choice" || name == "gen_ai.client.inference.operation.details"
}

// addEvent maps one span event given at time at: an evaluation result
// becomes a score, content events are left out by design, and any other
// event is noted once by name.
func (s *span) addEvent(name string, at uint64, e eventAttrs) {
	switch {
	case name == "gen_ai.evaluation.result":
		f, ok := e.score.number()
		if !ok {
			s.notes = append(s.notes, "evaluation result without a numeric gen_ai.evaluation.score.value")
			return
		}
		if e.evalName == "" {
			s.notes = append(s.notes, "evaluation result without gen_ai.evaluation.name: recorded as reward \"evaluation\"")
			e.evalName = "evaluation"
		}
		s.evals = append(s.evals, score{name: e.evalName, value: f, at: at})
	case name == "gen_ai.tool.message":
		// The call's arguments (Strands): only a handoff target is read.
		if e.target != "" && s.argTarget == "" {
			s.argTarget = e.target
		}
	case contentEvent(name):
	case strings.HasPrefix(name, "ai.stream."):
		// The AI SDK's streaming time marks (ai.stream.firstChunk,
		// ai.stream.finish): the model call's span already has its times.
	case name == "exception":
		// The exception's type is kept as the event's error, never its
		// message or stack trace (they may quote the prompt).
		if s.errType == "" || s.errType == "error" {
			s.errType = orDefault(e.excType, "exception")
		}
	default:
		if !slices.Contains(s.otherEvents, name) {
			s.otherEvents = append(s.otherEvents, name)
		}
	}
}

// missingID is the error for a span without a trace or span id.
func missingID(name string, haveTrace bool) string {
	missing := "traceId"
	if haveTrace {
		missing = "spanId"
	}
	return fmt.Sprintf("span %q has no %s", truncate(name, 80), missing)
}

// setStatus records an OTLP status code: 2 (STATUS_CODE_ERROR) marks the
// span as failed when neither error.type nor an exception named the error.
func (s *span) setStatus(code int64) {
	if code == 2 && s.errType == "" {
		s.errType = "error"
	}
}

// spanKindOf reads an OTLP SpanKind given as a number or, as some JSON
// encoders write enums, as its name.
func spanKindOf(v attrValue) int8 {
	if n, ok := v.integer(); ok && n >= 0 && n <= 5 {
		return int8(n)
	}
	switch v.s {
	case "SPAN_KIND_INTERNAL":
		return 1
	case "SPAN_KIND_SERVER":
		return 2
	case "SPAN_KIND_CLIENT":
		return 3
	case "SPAN_KIND_PRODUCER":
		return 4
	case "SPAN_KIND_CONSUMER":
		return 5
	}
	return 0
}

// statusCodeOf reads an OTLP status code given as a number or its name.
func statusCodeOf(v attrValue) int64 {
	if n, ok := v.integer(); ok {
		return n
	}
	if v.s == "STATUS_CODE_ERROR" {
		return 2
	}
	return 0
}
