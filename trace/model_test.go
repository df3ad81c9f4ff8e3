package trace

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/masrl/masrl/schema"
	"github.com/masrl/masrl/trace/internal/schemadoc"
)

// modelExtensions are the event members the model has beyond the schema's
// properties (events allow further members); the importer writes them.
func modelExtensions() []string { return []string{"tool_call_id", "error", "conversation_id"} }

// jsonFields returns the JSON names of a struct type's fields, embedded
// structs' fields flattened as encoding/json does, with their Go types
// and whether they are left out when empty.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for f := range t.Fields() {
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			maps.Copy(out, jsonFields(ft))
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out[name] = f
	}
	return out
}

// jsonType is the JSON type a Go field is written as.
func jsonType(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Float64, reflect.Int, reflect.Int64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return t.Kind().String()
}

// modelMismatches compares the model's types with the schema doc, member
// by member, and says what differs.
func modelMismatches(doc *schemadoc.Doc) []string {
	var out []string
	costs := doc.Trace.Field("costs")
	if costs == nil || costs.Object == nil {
		return []string{"#/properties/costs: the model has TraceCosts, the schema no costs object"}
	}
	for _, o := range []struct {
		where  string
		schema *schemadoc.Object
		model  reflect.Type
		extra  func(name string, f reflect.StructField) bool // a member beyond the schema's is allowed
	}{
		{"#", &doc.Trace, reflect.TypeFor[Trace](), nil},
		{"#/$defs/event", &doc.Event, reflect.TypeFor[Event](), func(name string, _ reflect.StructField) bool {
			return doc.Event.Additional == schemadoc.AnyMember && slices.Contains(modelExtensions(), name)
		}},
		{"#/$defs/edge", &doc.Edge, reflect.TypeFor[Edge](), nil},
		{"#/properties/costs", costs.Object, reflect.TypeFor[TraceCosts](), func(_ string, f reflect.StructField) bool {
			return costs.Object.Additional == schemadoc.NumberMember && jsonType(f.Type) == "number"
		}},
	} {
		fields := jsonFields(o.model)
		for _, sf := range o.schema.Fields {
			f, ok := fields[sf.Name]
			if !ok {
				out = append(out, o.where+"/properties/"+sf.Name+": the model ("+o.model.Name()+") has no field with this JSON name")
				continue
			}
			if got := jsonType(f.Type); got != sf.Type {
				out = append(out, o.where+"/properties/"+sf.Name+": the schema says "+sf.Type+", the model's "+f.Name+" is written as "+got)
			}
			if sf.Required && strings.Contains(f.Tag.Get("json"), ",omitempty") {
				out = append(out, o.where+"/properties/"+sf.Name+": required, but the model's "+f.Name+" is omitempty")
			}
		}
		for name, f := range fields {
			if o.schema.Field(name) != nil || (o.extra != nil && o.extra(name, f)) {
				continue
			}
			out = append(out, o.where+": the model's "+o.model.Name()+"."+f.Name+" writes "+name+", which the schema does not declare or allow")
		}
	}
	slices.Sort(out)
	return out
}

// TestModelMatchesSchema holds the model (Trace, Event, Edge, TraceCosts)
// to schema/trace.schema.json: every property has a field with its JSON
// name and type, required ones are always written, and every field is a
// property or an allowed extension.
func TestModelMatchesSchema(t *testing.T) {
	doc, err := schemadoc.Parse(schema.Trace())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modelMismatches(doc) {
		t.Error(m)
	}
}

// TestModelMismatchesSeeSchemaChanges checks that the comparison above
// fails when the schema gains a property or loses one the model writes.
func TestModelMismatchesSeeSchemaChanges(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"new event property", `"role": {`, `"priority": { "type": "number" }, "role": {`,
			"#/$defs/event/properties/priority: the model (Event) has no field with this JSON name"},
		{"new trace property", `"system": {`, `"seed": { "type": "string" }, "system": {`,
			"#/properties/seed: the model (Trace) has no field with this JSON name"},
		{"closed event", `"additionalProperties": true`, `"additionalProperties": false`,
			"#/$defs/event: the model's Event.ToolCallID writes tool_call_id, which the schema does not declare or allow"},
		{"retyped edge property", `"src": { "description": "id of the source event.", "type": "string"`,
			`"src": { "description": "id of the source event.", "type": "number"`,
			"#/$defs/edge/properties/src: the schema says number, the model's Src is written as string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := string(schema.Trace())
			if !strings.Contains(raw, c.old) {
				t.Fatalf("the schema has no %q to change", c.old)
			}
			doc, err := schemadoc.Parse([]byte(strings.Replace(raw, c.old, c.new, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if got := modelMismatches(doc); !slices.Contains(got, c.want) {
				t.Errorf("mismatches %q, want %q among them", got, c.want)
			}
		})
	}
}

// TestTypedConstantsAreTheValidatorsValues checks that the model's event
// and edge type constants are the values the validator accepts, with the
// codes it counts them by.
func TestTypedConstantsAreTheValidatorsValues(t *testing.T) {
	evs := []EventType{EventOrchestratorDecision, EventSpawn, EventDespawn, EventMessage, EventToolCall,
		EventToolResult, EventReturn, EventAggregate, EventHumanIntervention, EventSafetyEvent}
	for i, v := range evs {
		if c := eventTypeCode(string(v)); c != i {
			t.Errorf("event type %q: code %d, want %d", v, c, i)
		}
	}
	if len(evs) != numEventTypes {
		t.Errorf("%d event type constants, the schema has %d", len(evs), numEventTypes)
	}
	eds := []EdgeType{EdgeTemporal, EdgeCausal, EdgeSpawn, EdgeMessage, EdgeToolDependency, EdgeReturn, EdgeAggregate, EdgeSafetyFlow}
	for i, v := range eds {
		if c := edgeTypeCode(string(v)); c != i {
			t.Errorf("edge type %q: code %d, want %d", v, c, i)
		}
	}
	if len(eds) != numEdgeTypes {
		t.Errorf("%d edge type constants, the schema has %d", len(eds), numEdgeTypes)
	}
}

func modelExample() *Trace {
	yes := true
	return &Trace{TraceID: "r1", TaskID: "task \"1\"\u2028", System: "sys", Topology: "centralized",
		Events: []Event{
			{ID: "e1", T: 0, Type: EventSpawn, Agent: "lead", Role: "planner", To: "w", ContentRef: "sha:1"},
			{ID: "e2", T: 1.5, Type: EventToolCall, Agent: "w", Tool: "search", ToolCallID: "c1", Trusted: &yes},
			{ID: "e3", T: 2, Type: EventToolResult, Agent: "search", Error: "timeout", ConversationID: "conv\x01"},
		},
		Edges:   []Edge{{"e1", "e2", EdgeSpawn}, {"e2", "e3", EdgeToolDependency}},
		Rewards: map[string]float64{"team": 1, "process": 0.25},
		Costs:   TraceCosts{Tokens: 1234567, WallClockS: 2, ToolCalls: 1, Messages: 0, TokenDetails: &TokenDetails{1, 2, 3}},
		Metrics: map[string]float64{"task_success": 1},
	}
}

// TestAppendJSONReadsBack checks that the encoder writes what
// encoding/json reads back into the same model, indented or compact, and
// that the validator accepts it.
func TestAppendJSONReadsBack(t *testing.T) {
	want := modelExample()
	for _, compact := range []bool{false, true} {
		out := want.AppendJSON(nil, compact)
		var got Trace
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("compact %v: %v\n%s", compact, err, out)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("compact %v: read back %+v, want %+v", compact, got, *want)
		}
		if compact != !bytes.Contains(out, []byte("\n  ")) {
			t.Errorf("compact %v:\n%s", compact, out)
		}
		res, err := Validate(bytes.NewReader(out), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Valid() {
			t.Errorf("compact %v: invalid: %+v\n%s", compact, res.Findings, out)
		}
	}
}

// TestAppendJSONLayout pins the layout the importer's golden files hold:
// one event or edge a line, members in the model's order, rewards by name,
// optional members left out, an empty edge list on its line.
func TestAppendJSONLayout(t *testing.T) {
	tr := &Trace{TraceID: "r", TaskID: "t", Topology: "swarm",
		Events:  []Event{{ID: "a", T: 0.5, Type: EventMessage, Agent: "x", From: "x", To: "y"}},
		Rewards: map[string]float64{"z": 1, "a": math.NaN()},
		Costs:   TraceCosts{Tokens: 10, WallClockS: 0.5}}
	want := `{
  "trace_id": "r",
  "task_id": "t",
  "topology": "swarm",
  "events": [
    {"id":"a","t":0.5,"type":"message","agent":"x","from":"x","to":"y"}
  ],
  "edges": [],
  "rewards": {"a":0,"z":1},
  "costs": {"tokens":10,"wall_clock_s":0.5,"tool_calls":0,"messages":0}
}
`
	if got := string(tr.AppendJSON(nil, false)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	wantCompact := `{"trace_id":"r","task_id":"t","topology":"swarm","events":[{"id":"a","t":0.5,"type":"message","agent":"x","from":"x","to":"y"}],"edges":[],"rewards":{"a":0,"z":1},"costs":{"tokens":10,"wall_clock_s":0.5,"tool_calls":0,"messages":0}}
`
	if got := string(tr.AppendJSON([]byte("prefix"), true)); got != "prefix"+wantCompact {
		t.Errorf("compact: got\n%s\nwant\n%s", got, wantCompact)
	}
	tr.Events[0].Agent = "bad\xff"
	if got := string(tr.AppendJSON(nil, true)); !strings.Contains(got, `"agent":"bad\ufffd"`) {
		t.Errorf("invalid UTF-8 not replaced: %s", got)
	}
}

// FuzzAppendJSONString checks that every string is written as a JSON
// string that reads back to it, each invalid UTF-8 byte as U+FFFD, with
// no raw U+2028 or U+2029.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\s`, "\x00\x1f\x7f", "é\u2028x\u2029", "a\xffb\xc3", "\xe2\x80", "日本\n\t",
		"0123456789abcdef/call\x01x", "abcdefg\\hijklmnop\"q", "12345678é12345678\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendJSONString([]byte("x"), s)
		if out[0] != 'x' {
			t.Fatalf("prefix lost: %q", out)
		}
		var got string
		if err := json.Unmarshal(out[1:], &got); err != nil {
			t.Fatalf("%q: %v", out[1:], err)
		}
		var want strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			want.WriteRune(r) // RuneError for an invalid byte
			i += size
		}
		if got != want.String() {
			t.Errorf("%q reads back as %q, want %q", s, got, want.String())
		}
		if bytes.ContainsRune(out, '\u2028') || bytes.ContainsRune(out, '\u2029') {
			t.Errorf("%q: raw line separator in %q", s, out)
		}
	})
}

// TestPlain8 checks the eight-byte test against its byte-wise definition:
// every byte value at every place among plain bytes, and neighbours that
// could borrow into each other.
func TestPlain8(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	for _, fill := range []byte{'a', ' ', '!', '#', '[', ']', 0x7f} {
		for pos := range 8 {
			for v := range 256 {
				var w [8]byte
				for k := range w {
					w[k] = fill
				}
				w[pos] = byte(v)
				if pos > 0 {
					w[pos-1] = byte(v) + 1
				}
				want := true
				var x uint64
				for k, c := range w {
					want = want && plain(c)
					x |= uint64(c) << (8 * k)
				}
				if got := plain8(x); got != want {
					t.Fatalf("%q: plain8 %v, want %v", w, got, want)
				}
			}
		}
	}
}
