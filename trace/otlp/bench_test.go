package otlp

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkImport imports the file named by MASRL_OTLP_BENCH (e.g. made
// with go run ./cmd/synth otlp -spans 100000); make bench measures the
// command on a million spans.
func BenchmarkImport(b *testing.B) {
	name := os.Getenv("MASRL_OTLP_BENCH")
	if name == "" {
		b.Skip("MASRL_OTLP_BENCH is not set")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		im := NewImporter(Options{Compact: true}, func(*Trace) error { return nil }, func(Diagnostic) {})
		if err := im.Read(name, bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
		if err := im.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
