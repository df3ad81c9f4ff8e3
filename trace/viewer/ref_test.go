package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The implementations of liteTrace and staticRows before they read the
// trace with a scanner of their own instead of encoding/json's maps
// (liteTraceRef, staticRowsRef): the references the equivalence tests
// (TestLiteMatchesReference, FuzzLiteMatchesReference) hold them to,
// byte for byte.

// liteTraceRef is liteTrace as it was, with encoding/json.
func liteTraceRef(trace []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(trace, &top) != nil {
		top = nil // not an object: columns reads no events or edges
	}
	events := arrayOfRef(top["events"])
	var c liteColumns
	c.names.index = map[string]int{}
	c.types.index = map[string]int{}
	roled := map[string]bool{} // agents (as spelled) with a non-empty role
	for i, ev := range events {
		var m map[string]json.RawMessage
		if !isObject(ev) || json.Unmarshal(ev, &m) != nil {
			m = nil
		}
		var typ string
		if v := m["type"]; isString(v) {
			_ = json.Unmarshal(v, &typ)
			c.typ.num(c.types.of(v))
		} else {
			c.typ.num(-1)
		}
		if v := m["t"]; isNumber(v) {
			c.t.raw(v)
			c.times = append(c.times, v)
		} else {
			c.t.raw([]byte("0"))
			c.times = append(c.times, nil)
		}
		agent := json.RawMessage(`"(no agent)"`)
		if v := m["agent"]; isString(v) {
			agent = v
		}
		c.agent.num(c.names.of(agent))
		if v := m["role"]; isString(v) && !roled[string(agent)] {
			c.role.num(i)
			c.role.raw(v)
			roled[string(agent)] = string(v) != `""`
		}
		if v := m["tokens"]; isNumber(v) {
			c.tokens.num(i)
			c.tokens.raw(v)
		}
		_, r1 := m["reward"]
		_, r2 := m["rewards"]
		if r1 || r2 {
			c.reward.num(i)
		}
		switch typ {
		case "spawn":
			if v := m["to"]; isString(v) {
				c.to.num(i)
				c.to.num(c.names.of(v))
			}
		case "return":
			c.from.num(i)
			if v := m["from"]; isString(v) {
				c.from.num(c.names.of(v))
			} else {
				c.from.num(-1)
			}
		case "tool_result":
			a, aok := m["agent"]
			t, tok := m["tool"]
			switch same, known := strictEqual(a, aok, t, tok); {
			case !known:
				c.toolCmp.num(i)
				c.toolCmp.raw(a)
				c.toolCmp.raw(t)
			case same:
				c.tool.num(i)
			}
		}
	}
	edges := arrayOfRef(top["edges"])
	edgeTypes := table{index: map[string]int{}}
	var counts []int
	for _, e := range edges {
		var m map[string]json.RawMessage
		if !isObject(e) || json.Unmarshal(e, &m) != nil || !isString(m["type"]) {
			continue
		}
		k := edgeTypes.of(m["type"])
		if k == len(counts) {
			counts = append(counts, 0)
		}
		counts[k]++
	}
	var out bytes.Buffer
	out.WriteString(`{"n":`)
	out.WriteString(strconv.Itoa(len(events)))
	if scale, deltas, ok := scaledTimes(c.times); ok {
		// The times as small integers, which the page parses without
		// allocating a number each (lite.go's comment).
		c.t.Reset()
		for _, d := range deltas {
			c.t.num64(d)
		}
		out.WriteString(`,"tScale":`)
		out.WriteString(strconv.Itoa(scale))
	}
	for _, col := range []struct {
		name string
		list *list
	}{
		{"names", &c.names.list}, {"types", &c.types.list}, {"t", &c.t}, {"agent", &c.agent}, {"type", &c.typ},
		{"role", &c.role}, {"tokens", &c.tokens}, {"reward", &c.reward}, {"to", &c.to}, {"from", &c.from},
		{"tool", &c.tool}, {"toolCmp", &c.toolCmp}, {"edgeTypes", &edgeTypes.list},
	} {
		out.WriteString(`,"` + col.name + `":[`)
		out.Write(col.list.Bytes())
		out.WriteByte(']')
	}
	out.WriteString(`,"edgeCounts":[`)
	for k, n := range counts {
		if k > 0 {
			out.WriteByte(',')
		}
		out.WriteString(strconv.Itoa(n))
	}
	out.WriteString(`],"edges":`)
	out.WriteString(strconv.Itoa(len(edges)))
	out.WriteByte('}')
	return out.Bytes()
}

// staticRowsRef is staticRows as it was, with encoding/json.
func staticRowsRef(u Unit) staticUnit {
	su := staticUnit{Caption: strings.ToValidUTF8(u.Name, "\uFFFD")}
	if u.Line > 0 {
		su.Caption += " line " + strconv.Itoa(u.Line)
	}
	if u.Report.Stats != nil && u.Report.Stats.TraceID != "" {
		su.Caption += ", trace " + u.Report.Stats.TraceID
	}
	var tr struct {
		Events []map[string]any `json:"events"`
	}
	if json.Unmarshal(u.JSON, &tr) != nil {
		return su
	}
	su.Total = len(tr.Events)
	for i, ev := range tr.Events {
		if i == StaticRows {
			break
		}
		se := staticEvent{Index: i, Agent: str(ev["agent"]), Type: str(ev["type"])}
		if f, ok := ev["t"].(float64); ok {
			se.T = strconv.FormatFloat(f, 'g', -1, 64)
		}
		var rel []string
		for _, k := range []string{"from", "to", "tool"} {
			if s := str(ev[k]); s != "" {
				rel = append(rel, k+" "+s)
			}
		}
		se.Relation = strings.Join(rel, ", ")
		su.Events = append(su.Events, se)
	}
	su.Shown = len(su.Events)
	return su
}

// arrayOfRef returns the elements of a JSON array, or none if v is not one.
func arrayOfRef(v json.RawMessage) []json.RawMessage {
	var a []json.RawMessage
	if !isArray(v) || json.Unmarshal(v, &a) != nil {
		return nil
	}
	return a
}

// refCases are traces written to reach every path of the readers: keys
// spelled with escapes, in other cases and twice; events and edges that
// are not objects or not arrays; strings holding quotes, backslashes,
// brackets and non-ASCII text; numbers that do not fit a float64; and
// whitespace everywhere JSON allows it (staticRows reads the trace as
// given).
var refCases = []string{
	`{"events":[{"\u0074ype":"spawn","agent":"a","to":"b"},{"type":"return","from":"a","\u0066rom":7}],"edges":[{"type":"x"},{"\u0074ype":"y"}]}`,
	`{"events":[{"agent":"a"}],"events":[{"type":"message"},{"t":1}]}`,
	`{"events":[{"agent":"a","role":"r"},{"agent":"b"}],"Events":[{"type":"x"}]}`,
	`{"EVENTS":[{"type":"spawn"}],"events":null}`,
	`{"events":[7,{"type":"message"}]}`,
	`{"events":[{"type":"message"},7]}`,
	`{"events":[null,{"t":1e400}]}`,
	`{"events":[{"x":[1,{"y":-2.5E+400}]}]}`,
	`{"events":[{"x":"1e400"}]}`,
	`{"events":"none","edges":{"type":"x"}}`,
	`[{"events":[]}]`,
	`null`,
	` { "events" : [ { "t" : 1 , "type" : "spawn" , "agent" : "a\"}]" , "to" : "\\" } , null , { } ] , "edges" : [ { "type" : "t" } , [ ] ] } `,
	`{"events":[{"agent":"é\u00e9\ud800x","tool":"é\u00e9\ud800x","type":"tool_result"}]}`,
	"{\"events\":[{\"agent\":\"\xff\",\"type\":\"message\"}]}",
}

// randomRefTrace writes a random trace over the members the readers
// read, for TestLiteMatchesReference.
func randomRefTrace(rng *rand.Rand) string {
	keys := []string{`"events"`, `"edges"`, `"type"`, `"t"`, `"agent"`, `"role"`, `"tokens"`, `"reward"`, `"rewards"`,
		`"to"`, `"from"`, `"tool"`, `"\u0074ype"`, `"Events"`, `"x"`, `"a\"b"`}
	types := []string{`"spawn"`, `"return"`, `"tool_result"`, `"message"`, `"sp\u0061wn"`}
	ws := func() string { return []string{"", "", "", " ", "\n\t"}[rng.IntN(5)] }
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(12); {
		case k < 3:
			return []string{`"a"`, `"b"`, `"\u0061"`, `"]}\"\\"`, `"é"`, `""`, `"\ud800"`}[rng.IntN(7)]
		case k < 5:
			return []string{`0`, `-1.5`, `1e400`, `2.675`, `-0.0`, `1E2`, `12345678901234567890`, `0.0000000001`}[rng.IntN(8)]
		case k < 6:
			return []string{`true`, `false`, `null`}[rng.IntN(3)]
		case k < 7:
			return types[rng.IntN(len(types))]
		case depth > 2:
			return `null`
		case k < 10:
			var b strings.Builder
			b.WriteString("{" + ws())
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString(ws() + "," + ws())
				}
				b.WriteString(keys[rng.IntN(len(keys))] + ws() + ":" + ws() + value(depth+1))
			}
			b.WriteString(ws() + "}")
			return b.String()
		default:
			var b strings.Builder
			b.WriteString("[" + ws())
			for i := range rng.IntN(4) {
				if i > 0 {
					b.WriteString(ws() + "," + ws())
				}
				b.WriteString(value(depth + 1))
			}
			b.WriteString(ws() + "]")
			return b.String()
		}
	}
	event := func() string {
		if rng.IntN(10) == 0 {
			return value(2)
		}
		var b strings.Builder
		b.WriteString("{")
		for i := range 1 + rng.IntN(6) {
			if i > 0 {
				b.WriteString("," + ws())
			}
			k := keys[rng.IntN(len(keys))]
			v := value(1)
			if rng.IntN(2) == 0 {
				k, v = `"type"`, types[rng.IntN(len(types))]
			}
			b.WriteString(k + ws() + ":" + ws() + v)
		}
		b.WriteString("}")
		return b.String()
	}
	list := func(n int) string {
		var b strings.Builder
		b.WriteString("[" + ws())
		for i := range n {
			if i > 0 {
				b.WriteString("," + ws())
			}
			b.WriteString(event())
		}
		b.WriteString(ws() + "]")
		return b.String()
	}
	var b strings.Builder
	b.WriteString("{" + ws())
	for i := range 1 + rng.IntN(3) {
		if i > 0 {
			b.WriteString("," + ws())
		}
		key := []string{`"events"`, `"events"`, `"edges"`, `"Events"`, `"x"`}[rng.IntN(5)]
		b.WriteString(key + ws() + ":" + ws() + list(rng.IntN(StaticRows/300+8)))
	}
	b.WriteString(ws() + "}")
	return b.String()
}

// checkMatchesReference holds liteTrace, staticRows and tracesIsland to
// the implementations they replaced, on the trace text src.
func checkMatchesReference(t *testing.T, src []byte) {
	t.Helper()
	u := Unit{Name: "t.json", JSON: src}
	if got, want := staticRows(u), staticRowsRef(u); !reflect.DeepEqual(got, want) {
		t.Fatalf("staticRows(%.300q)\n got %.500s\nwant %.500s", src, fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want))
	}
	var c bytes.Buffer
	if json.Compact(&c, src) != nil {
		return
	}
	compact := bytes.ToValidUTF8(c.Bytes(), []byte("\uFFFD"))
	if got, want := liteTrace(compact), liteTraceRef(compact); !bytes.Equal(got, want) {
		t.Fatalf("liteTrace(%.300s)\n got %.500s\nwant %.500s", compact, got, want)
	}
	traces := []json.RawMessage{compact, json.RawMessage(`{"a":"</script>\u2028"}`)}
	want, err := islandJSON(traces)
	if err != nil {
		t.Fatal(err)
	}
	if got := tracesIsland(traces); got != want {
		t.Fatalf("tracesIsland(%.300s)\n got %.500s\nwant %.500s", compact, got, want)
	}
}

// TestLiteMatchesReference: the scanner's readers give what encoding/json's
// maps gave, byte for byte, on traces probing every path and on random
// ones, among them traces of more than StaticRows events.
func TestLiteMatchesReference(t *testing.T) {
	for _, src := range refCases {
		checkMatchesReference(t, []byte(src))
	}
	rng := rand.New(rand.NewPCG(38, 4))
	for range 400 {
		checkMatchesReference(t, []byte(randomRefTrace(rng)))
	}
	var big strings.Builder
	big.WriteString(`{"events":[`)
	for i := range StaticRows + 3 {
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`{"type":"message","agent":"a","t":` + strconv.Itoa(i) + `}`)
	}
	tail := big.String()
	checkMatchesReference(t, []byte(tail+`]}`))
	checkMatchesReference(t, []byte(tail+`,{"t":1e400}]}`))
	checkMatchesReference(t, []byte(tail+`,7]}`))
	checkMatchesReference(t, []byte(`{"events":[{"agent":"x"}],`+tail[1:]+`]}`))
}

// FuzzLiteMatchesReference: the same on any text.
func FuzzLiteMatchesReference(f *testing.F) {
	for _, src := range refCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkMatchesReference(t, src)
	})
}
