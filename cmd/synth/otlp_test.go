package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/masrl/masrl/trace/otlp"
)

// TestOTLP: the generator writes what it is asked for (spans, lines of at
// most -batch spans, the same bytes for the same seed), and the importer
// reads it without a diagnostic into traces of -trace-spans spans.
func TestOTLP(t *testing.T) {
	gen := func(args ...string) []byte {
		var out, errb bytes.Buffer
		if code := runOTLP(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.Bytes()
	}
	data := gen("-spans", "2501", "-trace-spans", "100", "-batch", "64", "-seed", "3")
	if !bytes.Equal(data, gen("-spans", "2501", "-trace-spans", "100", "-batch", "64", "-seed", "3")) {
		t.Error("two runs with one seed differ")
	}
	if lines := bytes.Count(data, []byte("\n")); lines != (2501+63)/64 {
		t.Errorf("%d lines, want %d of at most 64 spans", lines, (2501+63)/64)
	}
	spans, traces := 0, 0
	importEach(t, data, func(tr *otlp.Trace) {
		traces++
		spans += tr.Spans
		if tr.Spans != 100 && tr.Spans != 101 {
			t.Errorf("trace %s has %d spans", tr.ID, tr.Spans)
		}
		if tr.Stats.ToolCalls == 0 || tr.Stats.Tokens == 0 || tr.Stats.Spawns == 0 {
			t.Errorf("trace %s: %+v", tr.ID, tr.Stats)
		}
	})
	if spans != 2501 || traces != 25 {
		t.Errorf("%d spans in %d traces, want 2501 in 25", spans, traces)
	}
	if code := runOTLP(context.Background(), []string{"-spans", "0"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("-spans 0: exit %d, want 2", code)
	}
	if code := runOTLP(context.Background(), []string{"-format", "xml"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("-format xml: exit %d, want 2", code)
	}

	// The same run as the collector's protobuf records: the importer
	// writes the same traces from it, byte for byte.
	args := []string{"-spans", "2501", "-trace-spans", "100", "-batch", "64", "-seed", "3"}
	fromJSON, fromProto := importTraces(t, gen(args...)), importTraces(t, gen(append(args, "-format", "proto")...))
	if len(fromJSON) != 25 || !slices.Equal(fromJSON, fromProto) {
		t.Errorf("%d traces from JSON, %d from protobuf, or they differ", len(fromJSON), len(fromProto))
	}
}

// importTraces imports data, requiring no diagnostic, and returns the
// traces written, in order.
func importTraces(t *testing.T, data []byte) []string {
	var out []string
	importEach(t, data, func(tr *otlp.Trace) { out = append(out, string(tr.JSON)) })
	return out
}

// importEach imports data, requiring no diagnostic, and calls each with
// every trace written.
func importEach(t *testing.T, data []byte, each func(*otlp.Trace)) {
	t.Helper()
	im := otlp.NewImporter(otlp.Options{}, func(tr *otlp.Trace) error {
		each(tr)
		return nil
	}, func(d otlp.Diagnostic) { t.Errorf("diagnostic: %s", d) })
	if err := im.Read("synth", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
}
