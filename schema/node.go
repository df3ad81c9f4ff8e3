package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Node is the part of a JSON Schema the generated schemas use (the row of
// papers.csv, masrl.yaml), with the properties in the order a reader
// expects them, which a Go map would lose.
type Node struct {
	Type, Title, Description, Pattern string
	Enum                              []string
	MinLength                         int
	// Properties are an object's members in order; Closed forbids any
	// other (additionalProperties: false).
	Properties []Property
	Required   []string
	Closed     bool
}

// Property is one named member of an object schema.
type Property struct {
	Name   string
	Schema Node
}

// MarshalJSON writes the node's keywords in a fixed order, the properties
// in theirs, without HTML escaping: the schemas are read by people and
// editors, and "&" in a definition should read as "&".
func (n Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(key string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", key)
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		return nil
	}
	var err error
	set := func(key string, v any, present bool) {
		if present && err == nil {
			err = field(key, v)
		}
	}
	set("type", n.Type, n.Type != "")
	set("title", n.Title, n.Title != "")
	set("description", n.Description, n.Description != "")
	set("enum", n.Enum, n.Enum != nil)
	set("pattern", n.Pattern, n.Pattern != "")
	set("minLength", n.MinLength, n.MinLength > 0)
	set("required", n.Required, n.Required != nil)
	if n.Properties != nil && err == nil {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"properties":{`)
		for i, p := range n.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			v, perr := p.Schema.MarshalJSON()
			if perr != nil {
				return nil, perr
			}
			fmt.Fprintf(&b, "%q:%s", p.Name, v)
		}
		b.WriteByte('}')
	}
	set("additionalProperties", false, n.Closed)
	if err != nil {
		return nil, err
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Document writes root as a whole schema document (draft 2020-12) under
// the $id id, indented, ending in a newline.
func Document(id string, root Node) ([]byte, error) {
	body, err := root.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":%q,%s`, id, body[1:])
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
