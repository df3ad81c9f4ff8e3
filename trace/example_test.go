package trace_test

import (
	"fmt"
	"strings"

	"github.com/masrl/masrl/trace"
)

func ExampleValidate() {
	doc := `{
  "trace_id": "t1", "task_id": "k1",
  "events": [
    {"id": "e1", "t": 0, "type": "spawn", "agent": "lead", "to": "worker"},
    {"id": "e2", "t": 1, "type": "mesage", "agent": "worker"}
  ],
  "edges": [{"src": "e1", "dst": "e3", "type": "spawn"}],
  "rewards": {"team": 1}, "costs": {"tokens": 120, "wall_clock_s": 2}
}`
	res, err := trace.Validate(strings.NewReader(doc), trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Findings {
		fmt.Printf("%d:%d %s %s\n", f.Line, f.Col, f.Pointer, f.Rule)
	}
	fmt.Println("valid:", res.Valid())
	// Output:
	// 5:34 /events/1/type schema
	// 7:34 /edges/0/dst edge-ref
	// valid: false
}

func ExampleMeasure() {
	doc := `{"trace_id": "t1", "task_id": "k1",
  "events": [
    {"id": "e1", "t": 0, "type": "spawn", "agent": "lead", "to": "a"},
    {"id": "e2", "t": 0, "type": "spawn", "agent": "lead", "to": "b"},
    {"id": "e3", "t": 1, "type": "tool_call", "agent": "a", "tool": "web"},
    {"id": "e4", "t": 1, "type": "tool_call", "agent": "b", "tool": "web"},
    {"id": "e5", "t": 2, "type": "aggregate", "agent": "lead"}
  ],
  "edges": [
    {"src": "e1", "dst": "e3", "type": "spawn"}, {"src": "e2", "dst": "e4", "type": "spawn"},
    {"src": "e3", "dst": "e5", "type": "aggregate"}, {"src": "e4", "dst": "e5", "type": "aggregate"}
  ],
  "rewards": {"team": 1}, "costs": {"tokens": 300, "wall_clock_s": 2}}`
	r, err := trace.Measure(strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("critical path:", r.Graph.CriticalPath, "width:", r.Graph.MaxWidth, "spawn depth:", r.Graph.SpawnDepth)
	fmt.Println("useful-agent utilization:", *r.Derived.UsefulAgentUtilization)
	// Output:
	// critical path: 3 width: 2 spawn depth: 1
	// useful-agent utilization: 1
}
