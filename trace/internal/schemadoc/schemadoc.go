// Package schemadoc reads trace.schema.json into the shape the trace
// package works with: three objects (the trace, an event, an edge), their
// properties in document order and the keywords that constrain them.
//
// It is the one reading of the schema. The table generator
// (trace/internal/gentables) turns it into the fast validator's constants,
// and package trace hands it to the site, which renders the field tables
// of the traces page from it. It accepts only the keywords the fast
// validator implements, so a rule added to the schema that the validator
// would not check fails generation instead of being ignored.
package schemadoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Doc is the trace schema: the top-level object and the two element
// definitions of $defs.
type Doc struct {
	ID, Title   string
	Trace       Object
	Event, Edge Object
}

// Object is an object schema.
type Object struct {
	Description string
	// Fields are the declared properties, in the schema's order.
	Fields []Field
	// Additional says what members other than Fields may be.
	Additional Additional
}

// Additional is what an object's additionalProperties allow.
type Additional int

const (
	// AnyMember allows any further member (additionalProperties true or
	// absent).
	AnyMember Additional = iota
	// NoMember allows none (additionalProperties false).
	NoMember
	// NumberMember allows further members whose values are numbers.
	NumberMember
)

// Field is one declared property.
type Field struct {
	Name, Description string
	Required          bool
	// Type is the JSON type: string, number, boolean, array or object.
	Type string
	// Enum lists the allowed values of a string enumeration.
	Enum []string
	// MinLength (strings) and MinItems (arrays) are 0 when not given.
	MinLength, MinItems int
	// Minimum is the inclusive lower bound of a number, nil when none.
	Minimum *float64
	// Items names the $defs entry of an array's items ("event").
	Items string
	// Object describes an object-typed property (rewards, costs, metrics).
	Object *Object
}

// node is the part of a JSON Schema object this package reads. Any other
// keyword is an error (see keywords).
type node struct {
	Description          string          `json:"description"`
	Type                 string          `json:"type"`
	Enum                 []string        `json:"enum"`
	MinLength            *int            `json:"minLength"`
	Minimum              *float64        `json:"minimum"`
	MinItems             *int            `json:"minItems"`
	Ref                  string          `json:"$ref"`
	Items                *node           `json:"items"`
	Required             []string        `json:"required"`
	Properties           json.RawMessage `json:"properties"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
}

// keywords are the keywords a schema node may use; the root may also have
// the document keywords (rootKeywords).
func keywords() []string {
	return []string{"description", "type", "enum", "minLength", "minimum", "minItems", "$ref", "items", "required", "properties", "additionalProperties"}
}

func rootKeywords() []string { return []string{"$schema", "$id", "title", "$defs"} }

// Parse reads the schema. It fails on a keyword the fast validator does
// not implement and on a shape it does not know (a $ref other than to
// $defs/event or $defs/edge, an unknown type).
func Parse(raw []byte) (*Doc, error) {
	if err := checkKeywords(raw, "", true); err != nil {
		return nil, err
	}
	var root struct {
		node
		ID    string `json:"$id"`
		Title string `json:"title"`
		Defs  struct {
			Event, Edge json.RawMessage
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, err
	}
	if root.Defs.Event == nil || root.Defs.Edge == nil {
		return nil, errors.New("no $defs/event or $defs/edge")
	}
	d := &Doc{ID: root.ID, Title: root.Title}
	var err error
	if d.Trace, err = object(&root.node, ""); err != nil {
		return nil, err
	}
	for _, def := range []struct {
		name string
		raw  json.RawMessage
		dst  *Object
	}{{"event", root.Defs.Event, &d.Event}, {"edge", root.Defs.Edge, &d.Edge}} {
		ptr := "/$defs/" + def.name
		if err := checkKeywords(def.raw, ptr, false); err != nil {
			return nil, err
		}
		var n node
		if err := json.Unmarshal(def.raw, &n); err != nil {
			return nil, fmt.Errorf("%s: %w", ptr, err)
		}
		if *def.dst, err = object(&n, ptr); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// checkKeywords fails on a keyword of the node at ptr (and of its
// properties, items and additionalProperties) that this package does not
// read.
func checkKeywords(raw json.RawMessage, ptr string, root bool) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", ptrOr(ptr), err)
	}
	for k, v := range m {
		switch {
		case slices.Contains(keywords(), k):
		case root && slices.Contains(rootKeywords(), k):
			continue
		default:
			return fmt.Errorf("%s: keyword %q is not implemented by the fast validator (it reads %s)", ptrOr(ptr), k, strings.Join(keywords(), ", "))
		}
		switch k {
		case "properties":
			var props map[string]json.RawMessage
			if err := json.Unmarshal(v, &props); err != nil {
				return fmt.Errorf("%s/properties: %w", ptr, err)
			}
			for name, p := range props {
				if err := checkKeywords(p, ptr+"/properties/"+name, false); err != nil {
					return err
				}
			}
		case "items":
			if err := checkKeywords(v, ptr+"/items", false); err != nil {
				return err
			}
		case "additionalProperties":
			if v[0] == '{' {
				if err := checkKeywords(v, ptr+"/additionalProperties", false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func ptrOr(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}

// object reads an object schema at ptr.
func object(n *node, ptr string) (Object, error) {
	if n.Type != "object" {
		return Object{}, fmt.Errorf("%s: type %q, want object", ptrOr(ptr), n.Type)
	}
	o := Object{Description: n.Description}
	switch ap := string(bytes.TrimSpace(n.AdditionalProperties)); ap {
	case "", "true":
		o.Additional = AnyMember
	case "false":
		o.Additional = NoMember
	default:
		var a node
		if err := json.Unmarshal(n.AdditionalProperties, &a); err != nil || a.Type != "number" || len(a.Enum) > 0 || a.Minimum != nil {
			return Object{}, fmt.Errorf("%s/additionalProperties: only true, false and {\"type\": \"number\"} are implemented", ptr)
		}
		o.Additional = NumberMember
	}
	names, err := objectKeys(n.Properties)
	if err != nil {
		return Object{}, fmt.Errorf("%s/properties: %w", ptr, err)
	}
	var props map[string]*node
	if len(n.Properties) > 0 {
		if err := json.Unmarshal(n.Properties, &props); err != nil {
			return Object{}, fmt.Errorf("%s/properties: %w", ptr, err)
		}
	}
	for _, r := range n.Required {
		if !slices.Contains(names, r) {
			return Object{}, fmt.Errorf("%s/required: %q is not a declared property", ptrOr(ptr), r)
		}
	}
	for _, name := range names {
		f, err := field(name, props[name], ptr+"/properties/"+name)
		if err != nil {
			return Object{}, err
		}
		f.Required = slices.Contains(n.Required, name)
		o.Fields = append(o.Fields, f)
	}
	return o, nil
}

// field reads one property's schema.
func field(name string, p *node, ptr string) (Field, error) {
	f := Field{Name: name, Description: p.Description, Type: p.Type, Enum: p.Enum, Minimum: p.Minimum}
	if p.MinLength != nil {
		f.MinLength = *p.MinLength
	}
	if p.MinItems != nil {
		f.MinItems = *p.MinItems
	}
	if p.Ref != "" {
		return Field{}, fmt.Errorf("%s: $ref is implemented only as the items of an array", ptr)
	}
	switch p.Type {
	case "string", "number", "boolean":
	case "array":
		if p.Items == nil || !slices.Contains([]string{"#/$defs/event", "#/$defs/edge"}, p.Items.Ref) {
			return Field{}, fmt.Errorf("%s/items: only $ref to #/$defs/event or #/$defs/edge is implemented", ptr)
		}
		f.Items = strings.TrimPrefix(p.Items.Ref, "#/$defs/")
	case "object":
		o, err := object(p, ptr)
		if err != nil {
			return Field{}, err
		}
		f.Object = &o
	default:
		return Field{}, fmt.Errorf("%s: type %q is not implemented", ptr, p.Type)
	}
	return f, nil
}

// objectKeys returns the keys of a JSON object in document order, which
// encoding/json's maps lose.
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Field returns the property called name, or nil.
func (o *Object) Field(name string) *Field {
	for i := range o.Fields {
		if o.Fields[i].Name == name {
			return &o.Fields[i]
		}
	}
	return nil
}

// TypeText says in words what a property's schema allows, as the traces
// page and trace/README.md write it: "non-empty string", "number ≥ 0",
// "array of events, at least one".
func (f *Field) TypeText() string {
	if len(f.Enum) > 0 {
		return "one of"
	}
	switch f.Type {
	case "string":
		if f.MinLength > 0 {
			return "non-empty string"
		}
		return "string"
	case "number":
		if f.Minimum != nil {
			return "number ≥ " + strconv.FormatFloat(*f.Minimum, 'g', -1, 64)
		}
		return "number"
	case "array":
		s := "array of " + f.Items + "s"
		switch f.MinItems {
		case 0:
			s += " (may be empty)"
		case 1:
			s += ", at least one"
		default:
			s += ", at least " + strconv.Itoa(f.MinItems)
		}
		return s
	case "object":
		if f.Object != nil && f.Object.Additional == NumberMember {
			return "object of numbers"
		}
		return "object"
	}
	return f.Type
}
