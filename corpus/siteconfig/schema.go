package siteconfig

import (
	"strings"

	"github.com/masrl/masrl/schema"
)

// JSONSchema returns the JSON Schema of masrl.yaml, from Keys: every key
// with its usage as description, the nested repository and release
// mappings, and no other key (Parse refuses unknown keys too). The
// top-level schema/masrl.schema.json is this (go generate ./schema), and
// a test keeps it fresh.
func JSONSchema() schema.Node {
	root := schema.Node{
		Type: "object", Title: FileName, Closed: true,
		Description: "The settings of a list's site, beside papers.csv; every key is optional and a flag of masrl build overrides it. Generated from siteconfig.Keys by go generate ./schema; do not edit.",
	}
	for _, k := range Keys() {
		leaf := schema.Node{Type: "string", Description: k.Usage + " (flag --" + k.Flag + ")", MinLength: 1, Pattern: k.pattern}
		parent, name, dotted := strings.Cut(k.Name, ".")
		if !dotted {
			root.Properties = append(root.Properties, schema.Property{Name: k.Name, Schema: leaf})
			continue
		}
		// A dotted key lives in its mapping, which stands where its first
		// key does.
		n := len(root.Properties)
		if n == 0 || root.Properties[n-1].Name != parent {
			root.Properties = append(root.Properties, schema.Property{Name: parent, Schema: schema.Node{Type: "object", Closed: true}})
			n++
		}
		m := &root.Properties[n-1].Schema
		m.Properties = append(m.Properties, schema.Property{Name: name, Schema: leaf})
	}
	return root
}
