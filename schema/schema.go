// Package schema carries the project's JSON Schemas as embedded data, as
// package data carries the vocabularies and templates the page templates:
// the orchestration trace (trace.schema.json, which package trace
// validates and generates its tables from), masrl.yaml
// (masrl.schema.json), one row of papers.csv (paper.schema.json,
// generated from data/vocab.yaml) and the partial trace summary that
// masrl trace stats --partial writes (partial.schema.json, written by
// hand; package trace/partial's tests hold its writer and reader to it).
// The site publishes them under schema/, at the addresses their $id
// names, so that editors (VS Code's YAML extension, check-jsonschema) can
// validate the files against them.
package schema

//go:generate go run ./internal/genschemas

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed *.schema.json
var files embed.FS

//go:embed trace.schema.json
var trace []byte

//go:embed partial.schema.json
var partial []byte

// FS returns the schemas, one NAME.schema.json each.
func FS() fs.FS { return files }

// Trace returns trace.schema.json. The bytes are shared: callers must not
// change them.
func Trace() []byte { return trace }

// Partial returns partial.schema.json. The bytes are shared: callers
// must not change them.
func Partial() []byte { return partial }

// ID returns the $id of the generated schema called name: the address the
// trace schema's $id names, with name in place of trace.schema.json. The
// schemas are published side by side, so one base serves them all.
func ID(name string) (string, error) {
	var tr struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(trace, &tr); err != nil {
		return "", fmt.Errorf("trace.schema.json: %w", err)
	}
	base, ok := strings.CutSuffix(tr.ID, "trace.schema.json")
	if !ok {
		return "", fmt.Errorf("trace.schema.json: $id %q does not end in trace.schema.json", tr.ID)
	}
	return base + name, nil
}
