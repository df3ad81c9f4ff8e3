package trace

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzLineReader splits arbitrary input into JSON Lines units and
// requires that each non-blank line becomes one unit, numbered by its line
// in the input and holding exactly its bytes (without "\n" or "\r\n"),
// even when a line is longer than the reader's buffer and the buffer it
// is read into is reused.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}\r\n  \n{\"c\""))
	f.Add([]byte(strings.Repeat("x", 3<<20) + "\nlast"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		tio := BatchInput{Open: func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
		lr, err := openLines(context.Background(), "f.jsonl", tio)
		if err != nil {
			t.Fatal(err)
		}
		defer lr.close()
		var got []BatchTrace
		var buf []byte
		for {
			u, ok := lr.next(buf)
			if !ok {
				break
			}
			if u.Err != nil {
				t.Fatalf("read error: %v", u.Err)
			}
			buf = u.data
			u.data = bytes.Clone(u.data) // the buffer is reused for the next line
			got = append(got, u)
		}
		var want []BatchTrace
		for i, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSuffix(l, "\r")
			if strings.TrimSpace(l) != "" {
				want = append(want, BatchTrace{Line: i + 1, data: []byte(l)})
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d units, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i].Line != want[i].Line || !bytes.Equal(got[i].data, want[i].data) || got[i].File != "f.jsonl" {
				t.Fatalf("unit %d: line %d %q, want line %d %q", i, got[i].Line, got[i].data, want[i].Line, want[i].data)
			}
		}
	})
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
