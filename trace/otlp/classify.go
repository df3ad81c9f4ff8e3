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
	kCreate                // create_agent: an agent is built, nothing runs
	kAgentCall             // a tool span that runs an agent: the agent's spawn stands for it
)

// classify reads a span's kind from, in this order, the GenAI operation
// name, the OpenInference span kind, OpenLLMetry's traceloop.span.kind,
// Agent Lightning's reward span names,
// and the attributes of conventions 1.36 and earlier (gen_ai.system, token
// usage, a model, tool or agent name).
func classify(s *span) kind {
	if k, ok := classifyAI(s); ok {
		return k
	}
	switch s.op {
	case "invoke_agent":
		return kAgent
	case "create_agent":
		return kCreate
	case "execute_tool":
		return toolOrTransfer(s)
	case "chat", "text_completion", "generate_content", "embeddings":
		return kModel
	case "retrieval", "search_memory", "create_memory", "update_memory", "upsert_memory", "delete_memory":
		// A retrieval or a memory operation is a call to a store outside
		// the agent that returns a result: a tool call, named by the
		// operation (gen_ai.tool.name, if set, wins).
		if s.toolName == "" {
			s.toolName = s.op
		}
		return kTool
	case "create_memory_store", "delete_memory_store":
		// Setting up or removing a store, like create_agent: nothing runs.
		return kCreate
	case "plan":
		return kDecision
	case "invoke_workflow", "agent_step":
		return kContainer
	case "execute_event_loop_cycle", "invoke_swarm", "invoke_graph":
		// Strands: one turn of an agent's loop (its model call and tools
		// are spans of their own), and a multi-agent Swarm or Graph run,
		// which is a workflow. Neither is a model call, though they
		// carry gen_ai.system.
		return kContainer
	}
	switch s.oiKind {
	case "AGENT":
		if s.ownUsage && s.agentName == "" {
			// smolagents names its agent span NAME.run after the agent's
			// name and sets no name attribute.
			s.agentName = strings.TrimSuffix(s.name, ".run")
		}
		return kAgent
	case "TOOL", "RETRIEVER", "RERANKER":
		return toolOrTransfer(s)
	case "LLM", "EMBEDDING":
		if s.oiKind == "LLM" && !s.hasTokens && !s.messages && s.errType == "" {
			// A step of the framework's loop that OpenInference marks as
			// LLM but that sends nothing to a model: no message in, none
			// out, no usage, no error (LlamaIndex's
			// _prepare_chat_with_tools, which builds the messages and
			// tools of the call that follows). Not a model call.
			return kContainer
		}
		return kModel
	case "CHAIN":
		// LangGraph: the span of a graph node (metadata.langgraph_node
		// names the span itself) is the node's agent; __start__, the
		// graph's own span and chains inside a node are containers.
		if s.graphNode != "" && s.graphNode == s.name && !strings.HasPrefix(s.graphNode, "__") {
			if s.agentName == "" {
				s.agentName = s.graphNode
			}
			return kAgent
		}
		return kContainer
	case "GUARDRAIL":
		return kSafety
	case "PROMPT":
		// A prompt template being rendered: a step inside the agent,
		// not an orchestration event.
		return kContainer
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
	case s.messaging && s.op == "" && s.system == "" && !s.hasTokens && s.toolName == "" && s.agentName == "":
		// A message-passing runtime's span (AutoGen's create, send,
		// publish, process and ack of agent messages): delivery, not an
		// orchestration step; the agents' own spans are under it.
		return kContainer
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

// classifyAI reads the ai.* spans the Vercel AI SDK writes through
// LegacyOpenTelemetry (and every version before 7): a generateText,
// streamText, generateObject or streamObject call named by
// ai.telemetry.functionId is an agent (a container without one), its
// doGenerate/doStream/doEmbed calls are model calls, ai.toolCall is a tool
// call. The span name is the operation, or ai.operationId gives it.
func classifyAI(s *span) (kind, bool) {
	op := s.aiOp
	if op == "" {
		op = s.name
	}
	if !strings.HasPrefix(op, "ai.") {
		return 0, false
	}
	switch op {
	case "ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject":
		if s.functionID == "" {
			return kContainer, true
		}
		if s.agentName == "" {
			s.agentName = s.functionID
		}
		return kAgent, true
	case "ai.toolCall":
		return toolOrTransfer(s), true
	case "ai.embed", "ai.embedMany", "ai.rerank":
		return kContainer, true
	}
	for _, sfx := range [...]string{".doGenerate", ".doStream", ".doEmbed", ".doRerank"} {
		if strings.HasSuffix(op, sfx) {
			return kModel, true
		}
	}
	return 0, false
}

// toolOrTransfer tells a tool span from a transfer of control. A handoff
// names its target in gen_ai.transfer.target.name (with a transfer mode
// other than return_to_caller), or is a tool the agent frameworks
// generate for handoffs: OpenAI Agents' "handoff to X" span (tool
// handoff_to_X) or a transfer_to_X tool (Agents SDK, swarm, LangGraph
// supervisor). gen_ai.transfer.mode return_to_caller is an agent called
// as a tool: an agent invocation of the target.
func toolOrTransfer(s *span) kind {
	if s.transfer != "" {
		if s.transferMode == "return_to_caller" {
			// The span is the callee's run: gen_ai.agent.name and
			// gen_ai.agent.id on a tool span name the calling agent
			// (instrumentations stamp the current agent on every span),
			// so the target names the agent and the caller's id is not
			// the callee's.
			s.agentName, s.agentID = s.transfer, ""
			return kAgent
		}
		return kHandoff
	}
	name := s.toolName
	if name == "" {
		name = strings.TrimPrefix(s.name, "execute_tool ")
	}
	if s.argTarget != "" && (strings.HasPrefix(name, "handoff") || strings.HasPrefix(name, "transfer")) {
		// A handoff tool that names only itself (Strands' handoff_to_agent,
		// ADK's transfer_to_agent): the target is its agent_name argument.
		s.transfer = s.argTarget
		return kHandoff
	}
	for _, prefix := range [...]string{"handoff to ", "handoff_to_", "transfer_to_"} {
		// handoff_to_agent and transfer_to_agent name no agent: their
		// target is an argument (above); without one they are tool calls.
		if t, ok := strings.CutPrefix(name, prefix); ok && t != "" && t != "agent" {
			s.transfer = t
			return kHandoff
		}
	}
	if t, ok := strings.CutPrefix(s.name, "handoff to "); ok && t != "" {
		s.transfer = t
		return kHandoff
	}
	return kTool
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
