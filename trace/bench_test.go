package trace

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkValidateEvent measures the cost of one event (with its edge) in
// a generated trace; ns/op is per event.
func BenchmarkValidateEvent(b *testing.B) {
	const events = 20000
	data := synthTrace(b, events, 1)
	b.SetBytes(int64(len(data) / events))
	b.ResetTimer()
	for i := 0; i < b.N; i += events {
		if _, err := Validate(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateTrace measures a whole generated trace of 100,000 events
// (about 21 MB).
func BenchmarkValidateTrace(b *testing.B) {
	data := synthTrace(b, 100000, 1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Validate(bytes.NewReader(data), Options{})
		if err != nil || !res.Valid() {
			b.Fatal(err, res.Findings)
		}
	}
}

// BenchmarkValidateTraceStreamed measures the same trace read as a stream,
// through the readahead and with a size hint, as masrl trace validate reads
// a file.
func BenchmarkValidateTraceStreamed(b *testing.B) {
	data := synthTrace(b, 100000, 1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Validate(struct{ io.Reader }{bytes.NewReader(data)}, Options{SizeHint: int64(len(data))})
		if err != nil || !res.Valid() {
			b.Fatal(err, res.Findings)
		}
	}
}

// BenchmarkValidateSmallTrace measures one trace of a JSON Lines batch: a
// 100-event trace (about 20 kB) checked from memory with a Validator
// shared across the batch, as masrl trace validate checks each line
// (findings only).
// ns/op is per trace; what it adds over 100 events of
// BenchmarkValidateEvent is the per-trace setup.
func BenchmarkValidateSmallTrace(b *testing.B) {
	data := synthTrace(b, 100, 1)
	v := NewValidator()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := v.ValidateBytes(data, Options{FindingsOnly: true})
		if err != nil || !res.Valid() {
			b.Fatal(err, res.Findings)
		}
	}
}
