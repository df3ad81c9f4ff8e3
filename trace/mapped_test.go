package trace

import (
	"bytes"
	"reflect"
	"testing"
)

// TestMappedWindows validates a generated trace as a mapped file is read,
// in windows that end inside every kind of token, the bytes behind the
// scanner released (and overwritten, see validateWindows), and a trace
// with findings of every kind the graph reports: the same result as
// reading it, and the input released as the scanner goes.
func TestMappedWindows(t *testing.T) {
	traces := map[string][]byte{"synthetic": synthTrace(t, 2000, 3)}
	// Findings the graph makes after the events are read (an edge to an
	// unknown event, a repeated id) and the library rechecks (a bad type).
	bad := bytes.Replace(traces["synthetic"], []byte(`"dst":"e17"`), []byte(`"dst":"e999999"`), 1)
	bad = bytes.Replace(bad, []byte(`{"id":"e20",`), []byte(`{"id":"e19",`), 1)
	bad = bytes.Replace(bad, []byte(`"type":"causal"`), []byte(`"type":"casual"`), 1)
	traces["findings"] = bad
	for name, data := range traces {
		want := check(t, data, Options{})
		if name == "findings" && want.Errors < 3 {
			t.Fatalf("%s: want at least 3 errors, got %v", name, want.Findings)
		}
		for _, window := range []int{1, 5, 64, 4096, len(data)} {
			m := &mappedInput{data: bytes.Clone(data), window: window, page: 1, release: func(b []byte) { clear(b) }, cancelled: func() error { return nil }}
			got, err := NewValidator().validateMapped(m, Options{})
			if err != nil {
				t.Fatalf("%s, windows of %d bytes: %v", name, window, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, windows of %d bytes:\n%v %+v\nread:\n%v %+v", name, window, got.Findings, got.Report, want.Findings, want.Report)
			}
			// All but the last window or so is given back by the end.
			if window < len(data)/4 && m.released < len(data)-3*window-1024 {
				t.Errorf("%s, windows of %d bytes: %d of %d bytes released", name, window, m.released, len(data))
			}
		}
	}
}

// TestMappedCapture checks that what the scanner keeps across a window's
// end, with the bytes behind it released and overwritten, stays the
// input's: bytes captured for the library from the tenth token on, and
// the last string read while the scanner looks past it.
func TestMappedCapture(t *testing.T) {
	var doc bytes.Buffer
	for i := range 300 {
		doc.WriteString(`"w` + itoa(i) + `" ` + itoa(i*7919) + " ")
	}
	in := doc.Bytes()
	for _, window := range []int{1, 3, 7, 64} {
		m := &mappedInput{data: bytes.Clone(in), window: window, page: 1, release: func(b []byte) {
			for i := range b {
				b[i] = 0xff
			}
		}, cancelled: func() error { return nil }}
		s := newMappedScanner(m)
		var buf []byte
		tokens, from := 0, -1
		for {
			c, ok := s.peek()
			if !ok {
				break
			}
			if tokens == 10 {
				s.startCapture(&buf)
				from = int(s.here().off)
			}
			if c == '"' {
				at := int(s.here().off)
				if err := s.readString(); err != nil {
					t.Fatal(err)
				}
				want := string(in[at+1 : bytes.IndexByte(in[at+1:], '"')+at+1])
				s.peek() // may show the next window
				if string(s.str) != want {
					t.Fatalf("windows of %d: string %q after looking past it, want %q", window, s.str, want)
				}
			} else if _, err := s.readNumber(); err != nil {
				t.Fatal(err)
			}
			tokens++
		}
		got := s.endCapture()
		if want := in[from:]; string(got) != string(bytes.TrimRight(want, " ")) && string(got) != string(want) {
			t.Errorf("windows of %d: captured %d bytes from offset %d, want %d; differ at %d", window, len(got), from, len(want), mismatch(got, string(want)))
		}
		if m.released == 0 {
			t.Errorf("windows of %d: nothing released", window)
		}
	}
}
