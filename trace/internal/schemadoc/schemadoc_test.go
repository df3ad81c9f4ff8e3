package schemadoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func schema(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "schema", "trace.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestParse(t *testing.T) {
	d, err := Parse(schema(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Trace.Additional != NoMember || d.Event.Additional != AnyMember || d.Edge.Additional != NoMember {
		t.Errorf("additionalProperties: trace %v, event %v, edge %v", d.Trace.Additional, d.Event.Additional, d.Edge.Additional)
	}
	costs := d.Trace.Field("costs")
	if costs == nil || costs.Object == nil || costs.Object.Additional != NumberMember {
		t.Fatalf("costs %+v", costs)
	}
	if tok := costs.Object.Field("tokens"); tok == nil || !tok.Required || tok.Minimum == nil || *tok.Minimum != 0 {
		t.Errorf("costs.tokens %+v", tok)
	}
	if ev := d.Trace.Field("events"); ev.Items != "event" || ev.MinItems != 1 || ev.TypeText() != "array of events, at least one" {
		t.Errorf("events %+v (%s)", ev, ev.TypeText())
	}
	var names []string
	for _, f := range d.Event.Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "id t type agent role from to tool content_ref trusted" {
		t.Errorf("event fields in document order: %s", got)
	}
}

func TestParseRejects(t *testing.T) {
	raw := string(schema(t))
	for _, c := range []struct{ from, to, want string }{
		{`"additionalProperties": false,
  "properties": {`, `"additionalProperties": {"type": "string"},
  "properties": {`, "only true, false"},
		{`"required": ["src", "dst", "type"]`, `"required": ["src", "dst", "kind"]`, `"kind" is not a declared property`},
		{`"items": { "$ref": "#/$defs/edge" }`, `"items": { "type": "string" }`, "only $ref"},
		{`"title":`, `"if": {}, "title":`, `keyword "if"`},
	} {
		if !strings.Contains(raw, c.from) {
			t.Fatalf("the schema has no %s", c.from)
		}
		_, err := Parse([]byte(strings.Replace(raw, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.to, err, c.want)
		}
	}
}

// BenchmarkParse is what deriving the tables at start-up would cost per
// process (or, uncached, per trace).
func BenchmarkParse(b *testing.B) {
	raw := schema(b)
	for b.Loop() {
		if _, err := Parse(raw); err != nil {
			b.Fatal(err)
		}
	}
}
