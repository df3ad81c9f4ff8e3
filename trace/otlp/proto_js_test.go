//go:build js && wasm

package otlp

import (
	"testing"
)

// TestNoProtoInWasm: the WebAssembly build, which has no protobuf reader,
// answers protobuf input with one error at its first record, whether the
// format was told by content or given.
func TestNoProtoInWasm(t *testing.T) {
	rec := []byte{0, 0, 0, 2, 0x0a, 0x00}
	for _, c := range []struct {
		format Format
		want   string
	}{
		{FormatAuto, "f:record 1 (byte 0): error: the input does not start with '{': " + errNoProto},
		{FormatProto, "f:record 1 (byte 0): error: " + errNoProto},
	} {
		traces, _, diags := importAll(t, "f", rec, Options{Format: c.format})
		if len(traces) != 0 || len(diags) != 1 || diags[0].String() != c.want {
			t.Errorf("format %d: %d traces, diagnostics %v, want %s", c.format, len(traces), diags, c.want)
		}
	}
}
