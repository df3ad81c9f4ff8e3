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

// TestCompactEventHead holds compactEventHead to plainObject and the
// member loop as TestCompactEdge does compactEdge: each event below, in a
// trace with an edge to it and one from it, gives the same result with the
// plain path as with the member loop alone, measured and findings only;
// and compactEventHead reads exactly the events that begin compactly
// (their agent, next, or not).
func TestCompactEventHead(t *testing.T) {
	for word, text := range map[uint64]string{compactID: `{"id":"`, compactT: `","t":`, compactTypeKey: `,"type":`} {
		if got := binary.LittleEndian.Uint64(append([]byte(text), make([]byte, 8)...)); got != word {
			t.Errorf("%s: %#x, want %#x", text, word, got)
		}
	}
	events := []struct {
		text    string
		compact bool
	}{
		{`{"id":"e2","t":2.5,"type":"message","agent":"a","role":"r","to":"b","content_ref":"c1","trusted":true}`, true},
		{`{"id":"e2","t":0,"type":"spawn","agent":"a"}`, true},
		{`{"id":"e2","t":0.5,"type":"tool_call","agent":"a","tool":"x"}`, true},
		{`{"id":"e2","t":-0,"type":"message","agent":"a"}`, true},
		{`{"id":"e2","t":3,"type":"message", "agent":"a"}`, true},
		{`{"id":"a-rather-long-id","t":3,"type":"message","agent":"a"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":""}`, true}, // a finding, by the member loop
		{`{"id":"e2","t":3,"type":"message","agent":"a","agent":"b"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a","type":"spawn"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a","t":4}`, true},
		{`{"id":"e2","t":3,"type":"message","id":"e3","agent":"a"}`, true},
		{`{"id":"e2","t":3,"type":"message","extra":1,"agent":"a"}`, true},
		{`{"id":"e2","t":3,"type":"message","role":"r"}`, true}, // no agent
		{`{"id":"e2","t":3,"type":"message","role":"r","agent":"a"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a" ,"role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a\u0062","role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"","role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":1,"role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent" :"a","role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agents":"a","role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"é","role":"r"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a","role":"r","agent":"b"}`, true},
		{`{"id":"e2","t":3,"type":"message","agent":"a","role":"r","id":"e5"}`, true},
		{`{"id":"e1","t":3,"type":"message","agent":"a"}`, true}, // repeated id
		{`{"id":"e2","t":0.5,"type":"message"}`, false},
		{`{"id":"e2","t":-1,"type":"message","agent":"a"}`, false},
		{`{"id":"e2","t":1e400,"type":"message","agent":"a"}`, false},
		{`{"id":"e2","t":1e2,"type":"message","agent":"a"}`, true},
		{`{"id":"e2","t":01,"type":"message","agent":"a"}`, false},
		{`{"id":"e2","t":"1","type":"message","agent":"a"}`, false},
		{`{"id":"","t":1,"type":"message","agent":"a"}`, false},
		{`{"id":"e\u0032","t":1,"type":"message","agent":"a"}`, false},
		{`{"id":"é","t":1,"type":"message","agent":"a"}`, false},
		{`{"id":"e2","t":1,"type":"messages","agent":"a"}`, false},
		{`{"id":"e2","t":1,"type":"human_intervention","agent":"a"}`, false}, // longer than the matcher's 15 bytes
		{`{"id":"e2", "t":1,"type":"message","agent":"a"}`, false},
		{`{"id":"e2","type":"message","t":1,"agent":"a"}`, false},
		{`{"t":1,"id":"e2","type":"message","agent":"a"}`, false},
		{`{"id":"e2","t":1,"type":"message","agent":"a"`, true},
		{`{"id":"e2","t":1,"type":"message","agent"`, true},
		{`{"id":"e2","t":1,"type":"message",`, true},
		{`{"id":"e2","t":1,"type":"mess`, false},
		{`{"id":"e2","t":1,"ty`, false},
		{`{"id":"e2","t":`, false},
		{`{"id":"e2`, false},
	}
	const before = `{"id":"e1","t":1,"type":"message","agent":"z"},`
	const edges = `{"src":"e1","dst":"e2","type":"causal"},{"src":"e2","dst":"e3","type":"causal"}`
	for _, e := range events {
		for _, layout := range []string{"\n    ", ""} {
			doc := `{"trace_id":"t","task_id":"k","events":[` + layout + before + layout + e.text + layout + `],"edges":[` + edges + `],"rewards":{},"costs":{"tokens_in":0,"tokens_out":0,"usd":0}}`
			for _, opts := range []Options{{}, {FindingsOnly: true}} {
				plain := check(t, []byte(doc), opts)
				loopOpts := opts
				loopOpts.memberLoopOnly = true
				loop := check(t, []byte(doc), loopOpts)
				if !reflect.DeepEqual(plain, loop) {
					t.Errorf("%s (%+v): plain path and member loop differ:\n%v %+v\n%v %+v", e.text, opts, plain.Findings, plain.Report, loop.Findings, loop.Report)
				}
			}
		}
		c := newChecker(NewValidator(), Options{})
		c.s = newBytesScanner([]byte(e.text + "\n  ],\"edges\":[]"))
		c.start()
		_, place := c.compactEventHead(&c.plainObj)
		if got := place >= 3; got != e.compact {
			t.Errorf("%s: compactEventHead read it: %v, want %v", e.text, got, e.compact)
		}
		c.feed.stop()
	}
}
