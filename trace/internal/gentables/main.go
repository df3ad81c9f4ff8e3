// Command gentables writes the fast validator's tables (trace/tables_gen.go)
// from schema/trace.schema.json, so that the schema is the one source of the
// trace rules: property names and their bits, required sets, types,
// minimums, minimum lengths, enumerations and which objects are closed.
// Package trace runs it through go generate; TestGeneratedIsFresh fails
// when the checked-in file differs from what the schema gives.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("schema", "../schema/trace.schema.json", "the JSON Schema to read")
	out := flag.String("out", "tables_gen.go", "the Go file to write")
	flag.Parse()
	raw, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentables:", err)
		os.Exit(1)
	}
	src, err := generate(raw, *in)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gentables: %s: %v\n", *in, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gentables:", err)
		os.Exit(1)
	}
}
