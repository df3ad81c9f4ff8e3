package otlp

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/masrl/masrl/trace"
)

// FuzzImport: no input makes the importer panic; every diagnostic is
// placed in the input; every trace it writes has a safe id and no
// validation error. Seeds are the first lines of the SDK-written fixtures
// and the unit tests' shapes; run with go test ./trace/otlp -fuzz FuzzImport.
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.otlp.jsonl"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		// The first two lines: whole files make each run slow.
		f.Add(bytes.Join(bytes.SplitN(data, []byte("\n"), 3)[:2], []byte("\n")))
	}
	f.Add([]byte(line(agentSpan(tA, 1, 0, "boss", 0, 1000), agentSpan(tA, 2, 1, "w", 10, 100), toolSpan(tA, 3, 2, "a", 20, 30))))
	f.Add([]byte("{\n \"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"traceId\": \"" + tA + "\", \"spanId\": \"" + sid(1) + "\"}]}]}]\n}\n"))
	f.Add([]byte(`{"resourceSpans":[}` + "\n" + `[1,2]` + "\n"))
	// zstd: a whole compressed file, and collector records of compressed JSON.
	js := []byte(line(agentSpan(tA, 1, 0, "boss", 0, 1000), toolSpan(tA, 3, 1, "a", 20, 30)))
	f.Add(zstdAll(f, js))
	f.Add(zstdRecord(f, js))
	// Past the limits: a gzip file, a line of blanks, a record that
	// announces 4 GiB, a zstd frame that announces 1 GiB.
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(js)
	gw.Close()
	f.Add(gz.Bytes())
	f.Add(bytes.Repeat([]byte(" "), int(fuzzLimits.MaxLine)+10))
	f.Add(append([]byte{0xff, 0xff, 0xff, 0xff}, bytes.Repeat([]byte{0x0a}, 100)...))
	f.Add(append([]byte(zstdMagic), 0xa0, 0, 0, 0, 0x40, 0x09, 0, 0, 'x'))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, data, FormatAuto) })
}

// fuzzLimits are the limits the fuzz targets import with: small, so that
// the fuzzer meets them often.
var fuzzLimits = trace.Limits{MaxLine: 64 << 10, MaxRecord: 64 << 10, MaxDocument: 256 << 10, MaxDecompressed: 1 << 20}

// fuzzAllocBound is the most one fuzzed import may allocate: the
// importer's two 1 MiB read buffers, a decompressor with its window (at
// most MaxDecompressed), a few copies of a line, record or document at
// their limits, and the traces built of what that lets in. Whatever a
// length or a frame header announces, an import stays under it.
const fuzzAllocBound = 32 << 20

// fuzzImport imports data and checks that nothing panics, that every
// diagnostic is placed at a line of the input or at the start of one of
// its protobuf records, that every trace has a safe id and validates, and
// that the import allocates at most fuzzAllocBound bytes.
func fuzzImport(t *testing.T, data []byte, format Format) {
	plain := data
	var compressed io.Reader
	switch {
	case !protoBuild:
		// The WebAssembly build reads text only, compressed or not.
	case bytes.HasPrefix(data, []byte(zstdMagic)):
		dec, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1))
		if err == nil {
			defer dec.Close()
			compressed = dec
		}
	case bytes.HasPrefix(data, []byte(gzipMagic)):
		if gz, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			compressed = gz
		}
	}
	if compressed != nil {
		// A whole compressed file: diagnostics are placed in what it
		// holds (as far as the importer reads it), and one that does not
		// decompress is an error of Read, said so.
		plain, _ = io.ReadAll(io.LimitReader(compressed, fuzzLimits.MaxDecompressed+1))
	}
	lines := bytes.Count(plain, []byte("\n")) + 1
	records := recordStarts(plain)
	var traces []*Trace
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	im := NewImporter(Options{Window: 1, Workers: 1, Format: format, Limits: fuzzLimits}, func(tr *Trace) error {
		traces = append(traces, tr)
		return nil
	}, func(d Diagnostic) {
		placed := d.Line >= 1 && d.Line <= lines && d.Record == 0
		if d.Record > 0 {
			placed = d.Line == 0 && d.Record <= len(records) && d.Byte == records[d.Record-1]
		}
		if d.File != "f" || !placed || d.Message == "" {
			t.Errorf("diagnostic not placed in the input (%d lines, records at %v): %#v", lines, records, d)
		}
	})
	if err := im.Read("f", bytes.NewReader(data)); err != nil && !strings.Contains(err.Error(), "-compressed input does not decompress") &&
		!strings.Contains(err.Error(), "the input starts as gzip but does not decompress") {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > fuzzAllocBound {
		t.Fatalf("importing %d bytes allocated %d MB, more than the bound of %d MB", len(data), got>>20, fuzzAllocBound>>20)
	}
	for _, tr := range traces {
		if ParseTraceID(tr.ID) != nil {
			t.Errorf("unsafe trace id %q", tr.ID)
		}
		res, err := trace.Validate(bytes.NewReader(tr.JSON), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Valid() {
			t.Errorf("invalid trace %s: %v\n%s", tr.ID, res.Findings, tr.JSON)
		}
	}
}

// recordStarts lists where the collector's protobuf records of data
// begin, the last one perhaps cut short.
func recordStarts(data []byte) []int64 {
	var starts []int64
	for off := int64(0); off < int64(len(data)); {
		starts = append(starts, off)
		if off+4 > int64(len(data)) {
			break
		}
		off += 4 + int64(binary.BigEndian.Uint32(data[off:]))
	}
	return starts
}

// zstdAll compresses data as one zstd frame.
func zstdAll(tb testing.TB, data []byte) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// zstdRecord is the collector's record of msg with compression: zstd.
func zstdRecord(tb testing.TB, msg []byte) []byte {
	z := zstdAll(tb, msg)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(z))), z...)
}
