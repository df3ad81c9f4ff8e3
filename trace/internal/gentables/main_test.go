package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func schema(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "schema", "trace.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestGeneratedIsFresh fails when trace/tables_gen.go is not what the
// schema gives: the schema changed and go generate was not run, or the
// file was edited by hand.
func TestGeneratedIsFresh(t *testing.T) {
	want, err := generate(schema(t), "../schema/trace.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "tables_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("trace/tables_gen.go is stale: run go generate ./trace")
	}
}

// TestTablesFollowSchema changes the schema and requires the tables to
// change with it: a required property, a minimum and an enumeration value
// each reach the generated code.
func TestTablesFollowSchema(t *testing.T) {
	raw := string(schema(t))
	for _, c := range []struct{ name, from, to, want string }{
		{"required", `"required": ["src", "dst", "type"]`, `"required": ["src", "type"]`, "edRequired = edSrc | edType //"},
		{"enum", `"enum": ["temporal", "causal",`, `"enum": ["temporal", "causal", "fork",`, `case "fork":`},
		{"minimum", `"tokens": { "description": "Total tokens consumed.", "type": "number", "minimum": 0 }`, `"tokens": { "description": "Total tokens consumed.", "type": "number" }`, "costNonNegative = costWallClockS | costToolCalls | costMessages"},
	} {
		if !strings.Contains(raw, c.from) {
			t.Fatalf("%s: the schema has no %s", c.name, c.from)
		}
		src, err := generate([]byte(strings.Replace(raw, c.from, c.to, 1)), "x.json")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(src)), " "), c.want) {
			t.Errorf("%s: generated code lacks %q", c.name, c.want)
		}
	}
}

// TestRejectsWhatTheValidatorLacks requires generation to fail on schema
// keywords and shapes the fast validator does not implement, naming where.
func TestRejectsWhatTheValidatorLacks(t *testing.T) {
	raw := string(schema(t))
	idProp := `"id": { "description": "Identifier, unique within the trace.", "type": "string", "minLength": 1 }`
	if !strings.Contains(raw, idProp) {
		t.Fatal("the schema's event id changed; update this test")
	}
	for _, c := range []struct{ name, to, want string }{
		{"keyword", `"id": { "type": "string", "maxLength": 9 }`, `/$defs/event/properties/id: keyword "maxLength" is not implemented`},
		{"minLength", `"id": { "type": "string", "minLength": 2 }`, "minLength 2"},
		{"minimum", `"id": { "type": "number", "minimum": 1 }`, "minimum 1"},
		{"type", `"id": { "type": "integer" }`, `type "integer" is not implemented`},
		{"enum", `"id": { "type": "string", "enum": ["a"] }`, "#/$defs/event/properties/type: a second enumeration in one object"},
	} {
		_, err := generate([]byte(strings.Replace(raw, idProp, c.to, 1)), "x.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestChecksTheFastReadersShape requires generation to fail on a schema
// that uses only implemented keywords but a shape the fast reader would
// misread, and on an $id the library cannot compile from.
func TestChecksTheFastReadersShape(t *testing.T) {
	raw := string(schema(t))
	src := `"src": { "description": "id of the source event.", "type": "string", "minLength": 1 }`
	for _, c := range []struct{ name, from, to, want string }{
		{"number on an edge", src, `"src": { "type": "number" }`, "#/$defs/edge/properties/src: type number; the fast reader reads this object's members as string only"},
		{"boolean on an edge", src, `"src": { "type": "boolean" }`, "#/$defs/edge/properties/src: type boolean"},
		{"second enum on an edge", src, `"src": { "type": "string", "enum": ["a"] }`, "#/$defs/edge/properties/type: a second enumeration in one object"},
		{"relative $id", `"$id": "https://masrl.dev/schema/trace.schema.json"`, `"$id": "trace.schema.json"`, "want an absolute URL"},
	} {
		if !strings.Contains(raw, c.from) {
			t.Fatalf("%s: the schema has no %s; update this test", c.name, c.from)
		}
		_, err := generate([]byte(strings.Replace(raw, c.from, c.to, 1)), "x.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// The generated SchemaID is the schema's $id.
	out, err := generate([]byte(strings.Replace(raw, "https://masrl.dev/schema/trace.schema.json", "https://example.org/t.json", 1)), "x.json")
	if err != nil || !strings.Contains(string(out), `const SchemaID = "https://example.org/t.json"`) {
		t.Errorf("SchemaID does not follow the $id: %v", err)
	}
}
