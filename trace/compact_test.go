package trace

import (
	"encoding/binary"
	"reflect"
	"testing"
)

// TestCompactEdge holds compactEdge to plainObject and the member loop:
// each edge below, in a trace whose events it names or does not (a
// dangling end is reported at the end's position, so a wrong position
// shows), gives the same result with the plain path as with the member
// loop alone; and compactEdge reads exactly the edges written compactly.
func TestCompactEdge(t *testing.T) {
	for word, text := range map[uint64]string{compactSrc: `{"src":"`, compactDst: `","dst":`, compactType: `","type"`} {
		if got := binary.LittleEndian.Uint64([]byte(text)); got != word {
			t.Errorf("%s: %#x, want %#x", text, word, got)
		}
	}
	edges := []struct {
		text    string
		compact bool
	}{
		{`{"src":"e1","dst":"e2","type":"causal"}`, true},
		{`{"src":"e2","dst":"e1","type":"message"}`, true},                // back in time
		{`{"src":"e1","dst":"e9","type":"spawn"}`, true},                  // dangling dst
		{`{"src":"x","dst":"e2","type":"safety_flow"}`, true},             // dangling src, one byte
		{`{"src":"a-rather-long-id-1","dst":"e2","type":"return"}`, true}, // long id, dangling
		{`{"src":"e1","dst":"e1234567","type":"aggregate"}`, true},        // 8 bytes: long
		{`{"src":"e1","dst":"e2","type":"tool_dependency"}`, true},
		{`{"src":"","dst":"e2","type":"causal"}`, false},
		{`{"src":"e1","dst":"","type":"causal"}`, false},
		{`{"src":"e\u0031","dst":"e2","type":"causal"}`, false},
		{`{"src":"é","dst":"e2","type":"causal"}`, false},
		{`{"src":"e1","dst":"e2","type":"causes"}`, false},
		{`{"src":"e1","dst":"e2","type":"causal" }`, false},
		{`{"src":"e1","dst":"e2","type":"causal","w":1}`, false},
		{`{"src":"e1", "dst":"e2","type":"causal"}`, false},
		{`{"dst":"e2","src":"e1","type":"causal"}`, false},
		{`{"src":"e1","dst":"e2"}`, false},
		{`{"src":"e1","dst":"e2","typo":"causal"}`, false},
		{`{"src":"e1","dst":"e2","type":"causal"`, false},
		{`{"src":"e1","dst":"e2","type":"causa`, false},
		{`{"src":"e1","dst":"e2","type":`, false},
		{`{"src":"e1","dst":"e2"`, false},
		{`{"src":"e1","dst`, false},
		{`{"src":"e1`, false},
		{`{"src":`, false},
	}
	const events = `{"id":"e1","t":1,"type":"message","agent":"a"},
    {"id":"e2","t":2,"type":"message","agent":"a"}`
	for _, e := range edges {
		for _, layout := range []string{"\n    ", ""} {
			doc := `{"trace_id":"t","task_id":"k","events":[` + layout + events + `],"edges":[` + layout + e.text + layout + `],"rewards":{},"costs":{"tokens_in":0,"tokens_out":0,"usd":0}}`
			plain := check(t, []byte(doc), Options{})
			loop := check(t, []byte(doc), Options{memberLoopOnly: true})
			if !reflect.DeepEqual(plain, loop) {
				t.Errorf("%s: plain path and member loop differ:\n%v\n%v", e.text, plain.Findings, loop.Findings)
			}
		}
		c := newChecker(NewValidator(), Options{})
		// What follows in a trace: the type's matcher reads 16 bytes.
		c.s = newBytesScanner([]byte(e.text + "\n  ],\"rewards\":{}"))
		c.start()
		if got := c.compactEdge(); got != e.compact {
			t.Errorf("%s: compactEdge read it: %v, want %v", e.text, got, e.compact)
		}
		if e.compact && c.s.i != len(e.text) {
			t.Errorf("%s: compactEdge stopped at %d of %d", e.text, c.s.i, len(e.text))
		}
		c.feed.stop()
	}
}
