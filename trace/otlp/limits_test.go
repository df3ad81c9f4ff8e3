//go:build !(js && wasm)

package otlp

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/masrl/masrl/trace"
)

// bomb compresses n bytes of c, as a stream, with compression "zstd" or
// "gzip": a few kilobytes that expand to n.
func bomb(t *testing.T, compression string, c byte, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	var w io.WriteCloser
	switch compression {
	case "zstd":
		enc, err := zstd.NewWriter(&out, zstd.WithEncoderLevel(zstd.SpeedFastest))
		if err != nil {
			t.Fatal(err)
		}
		w = enc
	default:
		gz, err := gzip.NewWriterLevel(&out, gzip.BestSpeed)
		if err != nil {
			t.Fatal(err)
		}
		w = gz
	}
	chunk := bytes.Repeat([]byte{c}, 1<<20)
	for i := 0; i < n; i += len(chunk) {
		if _, err := w.Write(chunk[:min(len(chunk), n-i)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// importMeasured imports data and returns the diagnostics and the bytes
// allocated meanwhile.
func importMeasured(t *testing.T, data []byte, opts Options) ([]string, uint64) {
	t.Helper()
	var diags []string
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	im := NewImporter(opts, func(*Trace) error { return nil }, func(d Diagnostic) { diags = append(diags, d.String()) })
	if err := im.Read("f", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if err := im.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return diags, after.TotalAlloc - before.TotalAlloc
}

// allocBound is what an import that stops at a limit may allocate beyond
// twice the limit: the importer's two 1 MiB read buffers, the
// decompressor's window and state (the bombs here ask for little), and
// the worker's parse.
const allocBound = 24 << 20

// TestCompressedBombs: a zstd or gzip file of a few kilobytes that expands
// to 256 MiB of blanks (one endless line) stops at --max-line, and one
// that expands to 256 MiB of line ends stops at --max-decompressed; each
// is an error diagnostic at its line, and the import allocates a small
// multiple of the limit, not of what the bomb expands to.
func TestCompressedBombs(t *testing.T) {
	const expands = 256 << 20
	for _, comp := range []string{"zstd", "gzip"} {
		for _, c := range []struct {
			name string
			fill byte
			lim  trace.Limits
			want string
		}{
			{"blanks", ' ', trace.Limits{MaxLine: 1 << 20},
				"f:1: error: line 1 (from byte 0) is longer than 1 MiB, the most masrl reads (raise it with --max-line)"},
			{"line ends", '\n', trace.Limits{MaxDecompressed: 4 << 20},
				"f:4194305: error: the decompressed " + comp + " input (from byte 0) is longer than 4 MiB, the most masrl reads (raise it with --max-decompressed)"},
		} {
			t.Run(comp+" "+c.name, func(t *testing.T) {
				data := bomb(t, comp, c.fill, expands)
				diags, alloc := importMeasured(t, data, Options{Limits: c.lim})
				if len(diags) != 1 || diags[0] != c.want {
					t.Errorf("%d compressed bytes: diagnostics\n%s\nwant\n%s", len(data), strings.Join(diags, "\n"), c.want)
				}
				if alloc > 2*4<<20+allocBound {
					t.Errorf("allocated %d MB for %d compressed bytes", alloc>>20, len(data))
				}
			})
		}
	}
}

// TestRecordLimits: a framed record never costs more than the bytes that
// arrive, and at most --max-record: a length beyond the limit is an error
// of its record before anything is allocated, and a record whose zstd
// frame expands beyond the limit stops there, also when the frame
// announces a content size of a gigabyte it does not hold.
func TestRecordLimits(t *testing.T) {
	good := protoRecord(t, agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "search", 10, 20))
	g := len(good)
	zeros := make([]byte, 64<<20)
	// A frame that announces 1 GiB (single segment: the window is the
	// content) and holds one raw block of one byte.
	lying := []byte(zstdMagic)
	lying = append(lying, 0xa0) // FCS field of 4 bytes, single segment
	lying = binary.LittleEndian.AppendUint32(lying, 1<<30)
	lying = append(lying, 0x09, 0, 0, 'x') // last block, raw, 1 byte
	// The same announcing 100 MiB, within the largest window.
	lying100 := bytes.Clone(lying)
	binary.LittleEndian.PutUint32(lying100[5:], 100<<20)
	cases := []struct {
		name string
		in   []byte
		lim  trace.Limits
		want string
	}{
		{"length beyond the limit", append(bytes.Clone(good), append([]byte{0xff, 0xff, 0xff, 0xff}, bytes.Repeat([]byte{0}, 27<<10)...)...), trace.Limits{},
			"f:record 2 (byte " + itoa(g) + "): error: the record's length is 4294967295 bytes, more than 64 MiB, the most masrl reads of a record (raise it with --max-record)"},
		{"zstd frame beyond the limit", append(bytes.Clone(good), zstdRecord(t, zeros)...), trace.Limits{MaxRecord: 4 << 20},
			"f:record 2 (byte " + itoa(g) + "): error: the record's zstd frame expands to more than 4 MiB, the most masrl reads of a record (raise it with --max-record)"},
		{"zstd frame announcing 1 GiB", append(bytes.Clone(good), frame(lying)...), trace.Limits{},
			"f:record 2 (byte " + itoa(g) + "): error: the record's zstd frame expands to more than 64 MiB"},
		{"zstd frame announcing 100 MiB", append(bytes.Clone(good), frame(lying100)...), trace.Limits{},
			"f:record 2 (byte " + itoa(g) + "): error: the record's zstd frame expands to more than 64 MiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags, alloc := importMeasured(t, c.in, Options{Format: FormatProto, Limits: c.lim})
			if len(diags) != 1 || !strings.HasPrefix(diags[0], c.want) {
				t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(diags, "\n"), c.want)
			}
			if lim := c.lim.OrDefault(); alloc > 2*uint64(min(lim.MaxRecord, int64(len(c.in))))+allocBound {
				t.Errorf("allocated %d MB for %d bytes of input", alloc>>20, len(c.in))
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
