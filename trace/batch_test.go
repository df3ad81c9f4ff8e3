package trace

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// fuzzMaxLine is the line limit FuzzLineReader reads with: small, so
// that the fuzzer meets it often.
const fuzzMaxLine = 4096

// FuzzLineReader splits arbitrary input into JSON Lines units and
// requires that each non-blank line becomes one unit, numbered by its line
// in the input and holding exactly its bytes (without "\n" or "\r\n"),
// even when a line is longer than the reader's buffer and the buffer it
// is read into is reused; that a line longer than the limit ends the file
// with a LimitError at its line and byte offset; and that reading
// allocates no more than the reader's buffer and a few lines' worth,
// whatever the input.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}\r\n  \n{\"c\""))
	f.Add([]byte(strings.Repeat("x", 3<<20) + "\nlast"))
	f.Add([]byte("{}\n" + strings.Repeat(" ", fuzzMaxLine) + "\r\n" + strings.Repeat("y", fuzzMaxLine+1) + "\n{}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		type line struct {
			n    int
			off  int64
			data []byte
			long bool
		}
		var want []line
		var off int64
		for i, l := range bytes.SplitAfter(data, []byte("\n")) {
			next := off + int64(len(l))
			l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
			if len(l) > fuzzMaxLine {
				want = append(want, line{n: i + 1, off: off, long: true})
				break
			}
			if len(bytes.TrimSpace(l)) > 0 {
				want = append(want, line{n: i + 1, off: off, data: l})
			}
			off = next
		}
		tio := BatchInput{Open: func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		lr, err := openLines(context.Background(), "f.jsonl", tio, fuzzMaxLine)
		if err != nil {
			t.Fatal(err)
		}
		defer lr.close()
		var buf []byte
		k := 0
		for ; ; k++ {
			u, ok := lr.next(buf)
			if !ok {
				break
			}
			if k >= len(want) {
				t.Fatalf("unit %d (line %d): more units than the %d non-blank lines", k, u.Line, len(want))
			}
			w := want[k]
			if w.long {
				var le *LimitError
				if !errors.As(u.Err, &le) || u.Line != w.n || le.Byte != w.off || le.Limit != fuzzMaxLine {
					t.Fatalf("unit %d: line %d, error %v; want a LimitError at line %d, byte %d", k, u.Line, u.Err, w.n, w.off)
				}
				continue
			}
			if u.Err != nil {
				t.Fatalf("read error: %v", u.Err)
			}
			buf = u.data // the buffer is reused for the next line
			if u.Line != w.n || !bytes.Equal(u.data, w.data) || u.File != "f.jsonl" {
				t.Fatalf("unit %d: line %d %q, want line %d %q", k, u.Line, u.data, w.n, w.data)
			}
		}
		runtime.ReadMemStats(&after)
		if k != len(want) {
			t.Fatalf("%d units, want %d", k, len(want))
		}
		// The reader's 1 MiB buffer, and a line buffer grown to hold at
		// most a line and a chunk.
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(1<<20+4*fuzzMaxLine+64<<10); got > bound {
			t.Fatalf("reading %d bytes allocated %d bytes, more than the bound of %d", len(data), got, bound)
		}
	})
}

// endless is an input that never ends: every read fills p with c. It is
// what a pipe from a runaway process looks like.
type endless byte

func (c endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// TestBatchLineLimit: validate and stats read an endless JSON Lines input
// (stdin with --jsonl) up to the line limit, report it as a LimitError at
// line 1, byte 0, and stop reading, having allocated a small multiple of
// the limit, not the input.
func TestBatchLineLimit(t *testing.T) {
	for _, c := range []endless{'x', ' '} {
		const limit = 4 << 20
		tio := BatchInput{Stdin: c}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var got []*BatchResult
		ValidateBatch(context.Background(), []string{"-"}, BatchOptions{JSONLines: true, Limits: Limits{MaxLine: limit}}, tio, func(r *BatchResult) {
			got = append(got, r)
		})
		runtime.ReadMemStats(&after)
		if len(got) != 1 {
			t.Fatalf("%q: %d results, want 1", byte(c), len(got))
		}
		var le *LimitError
		if !errors.As(got[0].Err, &le) || got[0].Line != 1 || le.Byte != 0 || le.Flag != "--max-line" {
			t.Fatalf("%q: line %d, error %v; want a LimitError of --max-line at line 1", byte(c), got[0].Line, got[0].Err)
		}
		if !strings.Contains(got[0].Err.Error(), "line 1 (from byte 0) is longer than 4 MiB") {
			t.Errorf("message %q", got[0].Err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 4*limit {
			t.Errorf("%q: allocated %d MB reading to a limit of %d MB", byte(c), d>>20, limit>>20)
		}
	}
}

// TestReadInto: a file read in place is read whole, also when it holds
// more than its size said (it grew since it was opened) or less, into the
// memory of the buffer given; a read error is returned.
func TestReadInto(t *testing.T) {
	text := strings.Repeat("0123456789", 1000)
	buf := make([]byte, 0, 64)
	for _, size := range []int64{0, 10, int64(len(text)), 2 * int64(len(text))} {
		got, err := readInto(iotest.HalfReader(strings.NewReader(text)), buf, size)
		if err != nil || string(got) != text {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
		buf = got
	}
	small := make([]byte, 0, 2*len(text))
	got, err := readInto(strings.NewReader("{}"), small, 2)
	if err != nil || string(got) != "{}" || &got[:1][0] != &small[:1][0] {
		t.Fatalf("%q, %v: not read into the buffer given", got, err)
	}
	if _, err := readInto(iotest.ErrReader(io.ErrUnexpectedEOF), nil, 10); err != io.ErrUnexpectedEOF {
		t.Fatalf("error %v, want %v", err, io.ErrUnexpectedEOF)
	}
}
