package trace

import (
	"slices"
	"testing"
)

func TestDescribeSchema(t *testing.T) {
	d, err := DescribeSchema()
	if err != nil {
		t.Fatal(err)
	}
	find := func(fs []SchemaField, name string) *SchemaField {
		for i := range fs {
			if fs[i].Name == name {
				return &fs[i]
			}
		}
		t.Fatalf("no field %q", name)
		return nil
	}
	for _, c := range []struct {
		fs       []SchemaField
		name     string
		required bool
		typ      string
	}{
		{d.Trace, "trace_id", true, "non-empty string"},
		{d.Trace, "system", false, "string"},
		{d.Trace, "events", true, "array of events, at least one"},
		{d.Trace, "edges", true, "array of edges (may be empty)"},
		{d.Trace, "rewards", true, "object of numbers"},
		{d.Trace, "costs.tokens", true, "number ≥ 0"},
		{d.Trace, "costs.messages", false, "number ≥ 0"},
		{d.Event, "t", true, "number ≥ 0"},
		{d.Event, "trusted", false, "boolean"},
		{d.Edge, "type", true, "one of"},
	} {
		f := find(c.fs, c.name)
		if f.Required != c.required || f.Type != c.typ {
			t.Errorf("%s: required %v, type %q; want %v, %q", c.name, f.Required, f.Type, c.required, c.typ)
		}
	}
	ev := EventTypes()
	if !slices.Equal(find(d.Event, "type").Values, ev[:]) || !slices.Equal(d.EventTypes, ev[:]) {
		t.Errorf("event types %q, want %q", d.EventTypes, ev)
	}
}

func TestIsMeasure(t *testing.T) {
	for name, want := range map[string]bool{
		"events": true, "costs.tokens": true, "graph.critical_path": true, "safety.safety_events": true,
		"graph": true, "costs.nope": false, "critical_path": false, "events.count": false, "": false,
	} {
		if got := IsMeasure(name); got != want {
			t.Errorf("IsMeasure(%q) = %v, want %v", name, got, want)
		}
	}
}
