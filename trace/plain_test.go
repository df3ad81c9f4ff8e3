package trace

import (
	"strings"
	"testing"
)

// TestPlainObject checks which events the plain path takes and what it
// reads of them; everything it leaves goes to the member loop, whose
// results TestDifferential and FuzzValidate require to be the same.
func TestPlainObject(t *testing.T) {
	tb := newTables()
	// pad keeps each object away from the end of the buffer, where the
	// plain path leaves a key or number that might go on in the next read.
	const pad = "                "
	// keys carries the key order from one object to the next, as in a
	// trace: the cases mix orders, so they take both the guessed and the
	// matched way.
	var keys [maxPlainMembers][2]*matchWord
	for _, tc := range []struct {
		in   string
		take bool
		typ  int
		t    float64
	}{
		{`{"id":"e1","t":0.5,"type":"spawn","agent":"a"}`, true, EvSpawn, 0.5},
		{`{ "id": "e1", "t": 12, "type": "orchestrator_decision", "agent": "a", "trusted": false }`, true, EvOrchestratorDecision, 12},
		{`{"agent":"a","type":"human_intervention","t":1.25e1,"id":"x","role":"r","to":"b","trusted":true}`, true, EvHumanIntervention, 12.5},
		{`{"id":"e1","t":0.5,"type":"spawn","agent":"a","extra":1}`, false, 0, 0},       // undeclared key
		{`{"id":"e1","t":0.5,"type":"spawn","agent":"a","id":"e2"}`, false, 0, 0},       // repeated key
		{`{"id":"e\u0031","t":0.5,"type":"spawn","agent":"a"}`, false, 0, 0},            // escape
		{`{"id":"é","t":0.5,"type":"spawn","agent":"a"}`, false, 0, 0},                  // non-ASCII
		{"{\"id\":\"e1\",\n\"t\":0.5,\"type\":\"spawn\",\"agent\":\"a\"}", false, 0, 0}, // line break
		{`{"id":"e1","t":-0.5,"type":"spawn","agent":"a"}`, false, 0, 0},                // minimum 0
		{`{"id":"","t":0.5,"type":"spawn","agent":"a"}`, false, 0, 0},                   // minLength 1
		{`{"id":"e1","t":0.5,"type":"spawn"}`, false, 0, 0},                             // required
		{`{"id":"e1","t":0.5,"type":"spawnx","agent":"a"}`, false, 0, 0},                // enumeration
		{`{"id":"e1","t":"0.5","type":"spawn","agent":"a"}`, false, 0, 0},               // type
		{`{"id":"e1","t":1e400,"type":"spawn","agent":"a"}`, false, 0, 0},               // range
		{`{"id":"e1","t":0.5,"type":"spawn","agent":"a","trusted":truex}`, false, 0, 0},
		{`{"id":"e1","t":0.5,"type":"spawn","agent":"a",}`, false, 0, 0},
		{`{"id":"e1","t":01,"type":"spawn","agent":"a"}`, false, 0, 0},
	} {
		// With FindingsOnly the plain path keeps only the id, the time
		// and the type; it must take and reject the same objects.
		s := newBytesScanner([]byte(tc.in + pad))
		var few plainObj
		const keep = evID | evT | evEnums
		if took := s.plainObject(tb.eventObj, &tb.eventKinds, keep, &few, &keys); took != tc.take {
			t.Errorf("%s: keeping a few, taken %v, want %v", tc.in, took, tc.take)
		} else if took {
			for _, m := range few.m[:few.n] {
				if m.bit&keep == 0 {
					t.Errorf("%s: kept member %#x, want only %#x", tc.in, m.bit, keep)
				}
			}
			if want := strings.Count(tc.in, `"id"`) + strings.Count(tc.in, `"t"`) + strings.Count(tc.in, `"type"`); few.n != want {
				t.Errorf("%s: kept %d members, want %d", tc.in, few.n, want)
			}
		}
		var o plainObj
		took := s.plainObject(tb.eventObj, &tb.eventKinds, -1, &o, &keys)
		if took != tc.take {
			t.Errorf("%s: taken %v, want %v", tc.in, took, tc.take)
			continue
		}
		if s.i != 0 {
			t.Errorf("%s: the plain path moved the scanner", tc.in)
		}
		if !took {
			continue
		}
		if o.end != len(tc.in) {
			t.Errorf("%s: ends at %d, want %d", tc.in, o.end, len(tc.in))
		}
		for _, m := range o.m[:o.n] {
			switch m.bit {
			case evType:
				if m.code != tc.typ {
					t.Errorf("%s: type %d, want %d", tc.in, m.code, tc.typ)
				}
			case evT:
				if m.num != tc.t {
					t.Errorf("%s: t %v, want %v", tc.in, m.num, tc.t)
				}
			case evID:
				if id := m.str(s.buf); string(id) != "e1" && string(id) != "x" || !strings.HasPrefix(tc.in[m.at:], `"`+string(id)+`"`) {
					t.Errorf("%s: id %q at %d", tc.in, id, m.at)
				}
			}
		}
	}
	// An object that runs to the end of the buffer may go on in the next
	// read: the plain path leaves it.
	s := newBytesScanner([]byte(`{"id":"e1","t":0.5,"type":"spawn","agent":"a"}`))
	var o plainObj
	if s.plainObject(tb.eventObj, &tb.eventKinds, -1, &o, &keys) {
		t.Errorf("took an object at the end of the buffer")
	}
}
