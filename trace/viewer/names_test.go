package viewer

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/masrl/masrl/trace"
)

// jsBlock returns the text of viewer.js between "const NAME = " and the
// first line after it that closes the literal.
func jsBlock(t *testing.T, name string) string {
	t.Helper()
	src := string(Script())
	_, rest, ok := strings.Cut(src, "\n  const "+name+" = ")
	if !ok {
		t.Fatalf("viewer.js declares no const %s", name)
	}
	end := strings.Index(rest, "\n  }") // an object literal
	if strings.HasPrefix(rest, "[") {
		end = strings.Index(rest, "\n  ]")
	}
	if end < 0 {
		t.Fatalf("viewer.js: const %s does not end", name)
	}
	return rest[:end]
}

// TestScriptNamesTheSchemasTypes holds the viewer's type tables to the
// event and edge types generated from schema/trace.schema.json, which the
// validator and the importer use: the script counts types by their index
// (EVENT_TYPES, EDGE_TYPES from EDGES' keys), so its lists must be the
// schema's, in the schema's order, and every event type needs a colour.
func TestScriptNamesTheSchemasTypes(t *testing.T) {
	key := regexp.MustCompile(`(?m)^\s*([a-z_]+): \{`)
	var edges []string
	for _, m := range key.FindAllStringSubmatch(jsBlock(t, "EDGES"), -1) {
		edges = append(edges, m[1])
	}
	if want := trace.EdgeTypes(); !slices.Equal(edges, want[:]) {
		t.Errorf("viewer.js EDGES: %q, the schema's edge types are %q", edges, want)
	}
	var events []string
	for _, m := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(jsBlock(t, "EVENT_TYPES"), -1) {
		events = append(events, m[1])
	}
	want := trace.EventTypes()
	if !slices.Equal(events, want[:]) {
		t.Errorf("viewer.js EVENT_TYPES: %q, the schema's event types are %q", events, want)
	}
	colours := jsBlock(t, "EVENT_VAR")
	for _, ty := range want {
		if !regexp.MustCompile(`\b` + ty + `: "--`).MatchString(colours) {
			t.Errorf("viewer.js EVENT_VAR has no colour for event type %q", ty)
		}
	}
	// The codes the script tests by number.
	if want[1] != string(trace.EventSpawn) || want[6] != string(trace.EventReturn) {
		t.Errorf("viewer.js draws event types 1 and 6 as spawn and return; the schema has %q and %q", want[1], want[6])
	}
}
