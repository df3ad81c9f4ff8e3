// Package schema carries the project's JSON Schemas as embedded data, as
// package data carries the vocabularies and templates the page templates:
// the orchestration trace (trace.schema.json, which package trace
// validates and generates its tables from), masrl.yaml
// (masrl.schema.json) and one row of papers.csv (paper.schema.json,
// generated from data/vocab.yaml). The site publishes them under schema/,
// at the addresses their $id names, so that editors (VS Code's YAML
// extension, check-jsonschema) can validate the files against them.
package schema

//go:generate go run ./internal/genschemas

import (
	"embed"
	"io/fs"
)

//go:embed *.schema.json
var files embed.FS

//go:embed trace.schema.json
var trace []byte

// FS returns the schemas, one NAME.schema.json each.
func FS() fs.FS { return files }

// Trace returns trace.schema.json. The bytes are shared: callers must not
// change them.
func Trace() []byte { return trace }
