//go:build js && wasm

package otlp

import (
	"bufio"
	"io"

	"github.com/masrl/masrl/trace"
)

// The WebAssembly build leaves out the protobuf reader (proto.go): the
// protobuf runtime would make the module megabytes larger, and the page
// hands the module text, not bytes. Read reports protobuf input with
// errNoProto instead.

const protoBuild = false

// recordDecoder is nothing here: records are not read.
type recordDecoder = *struct{}

func (p *parser) closeDecoders() {}

func (p *parser) parseRecord([]byte, int, int64) bool {
	p.spans = nil
	p.diags = []Diagnostic{{Severity: Error, File: p.name, Message: errNoProto}}
	return false
}

// decompressed leaves the input as it is: the WebAssembly build reads
// OTLP/JSON text only.
func decompressed(br *bufio.Reader, _ trace.Limits) (*bufio.Reader, io.Closer, string, error) {
	return br, io.NopCloser(nil), "", nil
}
