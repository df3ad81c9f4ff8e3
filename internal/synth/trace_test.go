package synth

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWriteTraceDeterministic(t *testing.T) {
	gen := func(n int, seed uint64) []byte {
		var b bytes.Buffer
		if err := WriteTrace(&b, TraceOptions{Events: n, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b := gen(500, 3), gen(500, 3)
	if !bytes.Equal(a, b) {
		t.Error("same seed, different bytes")
	}
	if bytes.Equal(a, gen(500, 4)) {
		t.Error("different seeds, same bytes")
	}
}

func TestWriteTraceShape(t *testing.T) {
	for _, n := range []int{1, 2, 7, 2000} {
		var b bytes.Buffer
		if err := WriteTrace(&b, TraceOptions{Events: n, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Events []struct{ ID, Type string }
			Edges  []struct{ Src, Dst, Type string }
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("%d events: %v", n, err)
		}
		if len(doc.Events) != n {
			t.Errorf("got %d events, want %d", len(doc.Events), n)
		}
		ids := map[string]bool{}
		types := map[string]bool{}
		for _, e := range doc.Events {
			ids[e.ID] = true
			types[e.Type] = true
		}
		for _, e := range doc.Edges {
			if !ids[e.Src] || !ids[e.Dst] {
				t.Fatalf("edge %v names a missing event", e)
			}
		}
		if n >= 2000 && len(types) != 10 {
			t.Errorf("%d events use %d event types, want all 10", n, len(types))
		}
	}
	if err := WriteTrace(&bytes.Buffer{}, TraceOptions{Events: 0}); err == nil {
		t.Error("0 events accepted")
	}
}

func TestWriteTraceLines(t *testing.T) {
	var a, b bytes.Buffer
	opts := TraceLinesOptions{Traces: 20, Events: 30, Seed: 3}
	if err := WriteTraceLines(&a, opts); err != nil {
		t.Fatal(err)
	}
	if err := WriteTraceLines(&b, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("same options, different bytes")
	}
	lines := bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 20 {
		t.Fatalf("%d lines, want 20", len(lines))
	}
	ids := map[string]bool{}
	for i, l := range lines {
		var v struct {
			TraceID  string `json:"trace_id"`
			Topology string
			Events   []json.RawMessage
		}
		if err := json.Unmarshal(l, &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if ids[v.TraceID] {
			t.Errorf("line %d: trace id %s repeats", i+1, v.TraceID)
		}
		ids[v.TraceID] = true
		if n := len(v.Events); n < 6 || n > 54 {
			t.Errorf("line %d: %d events, want 6..54", i+1, n)
		}
	}
}
