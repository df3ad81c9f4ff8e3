package trace

import (
	"bytes"
	_ "embed"
)

// exampleJSON is the project's example trace. The file stays in testdata,
// where the validator's tests and the WebAssembly smoke test read it, so
// that the example the site publishes and the one the tests prove valid
// are the same file; embedding it means an installed masrl needs no
// checkout to publish it.
//
//go:embed testdata/example.json
var exampleJSON []byte

// ExampleJSON returns the embedded example trace: a valid trace that uses
// every event and edge type, for the traces page and its downloads.
func ExampleJSON() []byte { return bytes.Clone(exampleJSON) }
