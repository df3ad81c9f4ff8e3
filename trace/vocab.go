package trace

// The enumerations of trace.schema.json, as codes for the fast path. They
// are functions returning arrays (copies), not package variables, so that
// no caller can change the vocabulary under another. TestVocabMatchesSchema
// keeps them equal to the embedded schema.

// Event type codes, in the schema's order.
const (
	EvOrchestratorDecision = iota
	EvSpawn
	EvDespawn
	EvMessage
	EvToolCall
	EvToolResult
	EvReturn
	EvAggregate
	EvHumanIntervention
	EvSafetyEvent
	numEventTypes
)

// EventTypes returns the ten event types of the schema.
func EventTypes() [numEventTypes]string {
	return [...]string{"orchestrator_decision", "spawn", "despawn", "message", "tool_call", "tool_result", "return", "aggregate", "human_intervention", "safety_event"}
}

func eventTypeList() []string { l := EventTypes(); return l[:] }

func eventTypeCode(s string) int {
	switch s {
	case "orchestrator_decision":
		return EvOrchestratorDecision
	case "spawn":
		return EvSpawn
	case "despawn":
		return EvDespawn
	case "message":
		return EvMessage
	case "tool_call":
		return EvToolCall
	case "tool_result":
		return EvToolResult
	case "return":
		return EvReturn
	case "aggregate":
		return EvAggregate
	case "human_intervention":
		return EvHumanIntervention
	case "safety_event":
		return EvSafetyEvent
	}
	return -1
}

// Edge type codes, in the schema's order.
const (
	EdTemporal = iota
	EdCausal
	EdSpawn
	EdMessage
	EdToolDependency
	EdReturn
	EdAggregate
	EdSafetyFlow
	numEdgeTypes
)

// EdgeTypes returns the eight edge types of the schema.
func EdgeTypes() [numEdgeTypes]string {
	return [...]string{"temporal", "causal", "spawn", "message", "tool_dependency", "return", "aggregate", "safety_flow"}
}

func edgeTypeList() []string { l := EdgeTypes(); return l[:] }

func edgeTypeCode(s string) int {
	switch s {
	case "temporal":
		return EdTemporal
	case "causal":
		return EdCausal
	case "spawn":
		return EdSpawn
	case "message":
		return EdMessage
	case "tool_dependency":
		return EdToolDependency
	case "return":
		return EdReturn
	case "aggregate":
		return EdAggregate
	case "safety_flow":
		return EdSafetyFlow
	}
	return -1
}

// Topologies returns the topology values of the schema (survey Table 5).
func Topologies() []string {
	return []string{"centralized", "planner_executor_critic", "debate", "swarm", "hierarchical", "harness", "mixed", "unknown"}
}
