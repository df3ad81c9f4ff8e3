package trace

import (
	"reflect"
	"strings"

	"github.com/masrl/masrl/schema"
	"github.com/masrl/masrl/trace/internal/schemadoc"
)

// SchemaField is one member of the trace, an event or an edge, as the
// schema defines it: what the traces page and the README tabulate.
type SchemaField struct {
	Name        string
	Required    bool
	Type        string   // "non-empty string", "number ≥ 0", "array of events, at least one"
	Values      []string // the allowed values of an enumeration
	Description string
}

// SchemaDoc describes the embedded schema for documentation: the fields of
// the trace, an event and an edge, in the schema's order, and the two type
// vocabularies. It is read from the schema by the same reader that
// generates the validator's tables (internal/schemadoc), so the page and
// the validator cannot describe different schemas.
type SchemaDoc struct {
	Trace, Event, Edge    []SchemaField
	EventTypes, EdgeTypes []string
}

// DescribeSchema reads the embedded schema into a SchemaDoc. Object-valued
// properties with properties of their own (costs) are followed by their
// members as "costs.tokens" and so on.
func DescribeSchema() (*SchemaDoc, error) {
	doc, err := schemadoc.Parse(schema.Trace())
	if err != nil {
		return nil, err
	}
	d := &SchemaDoc{
		Trace: describe(&doc.Trace, ""), Event: describe(&doc.Event, ""), Edge: describe(&doc.Edge, ""),
		EventTypes: eventTypeList(), EdgeTypes: edgeTypeList(),
	}
	return d, nil
}

func describe(o *schemadoc.Object, prefix string) []SchemaField {
	var out []SchemaField
	for i := range o.Fields {
		f := &o.Fields[i]
		out = append(out, SchemaField{
			Name: prefix + f.Name, Required: f.Required, Type: f.TypeText(),
			Values: f.Enum, Description: f.Description,
		})
		if f.Object != nil && len(f.Object.Fields) > 0 {
			out = append(out, describe(f.Object, prefix+f.Name+".")...)
		}
	}
	return out
}

// IsMeasure reports whether name, a dotted path of JSON member names such
// as "graph.critical_path", names a member of the Report that masrl trace
// stats prints. The traces page checks its checklist with it, so that a
// renamed measure fails the build instead of leaving a dead name.
func IsMeasure(name string) bool {
	t := reflect.TypeFor[Report]()
	for part := range strings.SplitSeq(name, ".") {
		if t = jsonMember(t, part); t == nil {
			return false
		}
	}
	return true
}

// jsonMember returns the type of the field of struct type t whose JSON name
// is name, or nil.
func jsonMember(t reflect.Type, name string) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && tag == name {
			return f.Type
		}
	}
	return nil
}
