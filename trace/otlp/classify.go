package otlp

import "strings"

// kind is what a span becomes in the orchestration trace.
type kind uint8

const (
	kOther     kind = iota // not mapped: reported
	kContainer             // a workflow or chain: its spans belong to the nearest agent
	kAgent                 // an agent invocation: spawn and return
	kTool                  // a tool execution: tool_call and tool_result
	kHandoff               // a transfer to another agent: message
	kModel                 // a model call: message
	kDecision              // a planning step: orchestrator_decision
	kSafety                // a guardrail: safety_event
	kReward                // an Agent Lightning reward span: rewards only
)

// classify reads a span's kind from, in this order, the GenAI operation
// name, the OpenInference span kind, OpenLLMetry's traceloop.span.kind,
// Agent Lightning's reward span names,
// and the attributes of conventions 1.36 and earlier (gen_ai.system, token
// usage, a model, tool or agent name).
func classify(s *span) kind {
	switch s.op {
	case "invoke_agent", "create_agent":
		return kAgent
	case "execute_tool":
		if s.transfer != "" {
			return kHandoff
		}
		return kTool
	case "chat", "text_completion", "generate_content", "embeddings":
		return kModel
	case "plan":
		return kDecision
	case "invoke_workflow":
		return kContainer
	}
	switch s.oiKind {
	case "AGENT":
		return kAgent
	case "TOOL", "RETRIEVER", "RERANKER":
		if s.transfer != "" {
			return kHandoff
		}
		return kTool
	case "LLM", "EMBEDDING":
		return kModel
	case "CHAIN":
		return kContainer
	case "GUARDRAIL":
		return kSafety
	}
	switch s.tlKind {
	case "agent":
		if s.agentName == "" {
			s.agentName = s.tlName
		}
		return kAgent
	case "tool":
		if s.toolName == "" {
			s.toolName = s.tlName
		}
		if s.transfer != "" {
			return kHandoff
		}
		return kTool
	case "workflow", "task":
		if s.workflow == "" {
			s.workflow = s.tlName
		}
		return kContainer
	}
	switch {
	case s.name == "agentlightning.annotation" || s.name == "agentlightning.reward" || len(s.rewards) > 0:
		return kReward
	case s.transfer != "":
		return kHandoff
	case s.system != "" || s.hasTokens || s.model != "":
		return kModel
	case s.toolName != "":
		return kTool
	case s.agentName != "":
		return kAgent
	}
	return kOther
}

// toolName is the tool of a tool span: gen_ai.tool.name or tool.name, else
// the span name without the "execute_tool " prefix the conventions give it.
func toolName(s *span) string {
	if s.toolName != "" {
		return s.toolName
	}
	if n := strings.TrimPrefix(s.name, "execute_tool "); n != "" {
		return n
	}
	return "tool"
}

// modelName is the receiver of a model call's message.
func modelName(s *span) string {
	switch {
	case s.model != "":
		return s.model
	case s.system != "":
		return s.system
	}
	return "model"
}
