package trace

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestChunkBoundaries validates traces through the readahead, whose chunks
// the scanner scans in place, and through a bytes.Reader, which the scanner
// copies into a buffer of its own, and requires the same result. Each trace
// puts one awkward value across one of the first chunk boundaries: a long
// number (longer than the room in front of a chunk), a string with
// escapes, a string with invalid UTF-8 (both read the slow way), a nested
// object of the event's own; the plain trace has ids and names cut by the
// boundaries wherever they fall.
func TestChunkBoundaries(t *testing.T) {
	base := string(synthTrace(t, 6000, 7)) // about 1.2 MB: several chunks
	insert := func(at int, text string) string {
		// Put text into the event whose line holds offset at: after its
		// opening brace, as the first property.
		i := strings.LastIndex(base[:at], "\n    {")
		if i < 0 {
			t.Fatalf("no event before offset %d", at)
		}
		i += len("\n    {")
		return base[:i] + text + "," + base[i:]
	}
	longNumber := `"x_num":` + strings.Repeat("7", readaheadPad+1000)
	cases := map[string]string{"plain": base}
	for k := 1; k <= 3; k++ {
		b := k * readaheadChunk
		for name, text := range map[string]string{
			"number":  longNumber,
			"escapes": `"x_str":"` + strings.Repeat(`a\u00e9\n\"`, 700) + `"`,
			"utf8":    "\"x_bad\":\"" + strings.Repeat("\xff\xc3\xa9", 500) + "\"",
			"unknown": `"x_obj":{"a":[1,2,{"b":"` + strings.Repeat("c", 3000) + `"}]}`,
		} {
			for _, shift := range []int{-2000, -100, -5, 0} {
				cases[name+"@"+string(rune('0'+k))+"/"+itoa(shift)] = insert(b+shift, text)
			}
		}
	}
	// An edge with a property it may not have is handed to the library,
	// from bytes captured across the boundary.
	edges := strings.Index(base, `"edges"`)
	b := (edges/readaheadChunk + 1) * readaheadChunk
	if b > len(base)-1000 {
		t.Fatalf("no chunk boundary among the edges (%d bytes, edges at %d)", len(base), edges)
	}
	for _, shift := range []int{-2000, -100, -5, 0} {
		cases["edge/"+itoa(shift)] = insert(b+shift, `"x_edge":"`+strings.Repeat("d", 3000)+`"`)
	}
	for name, doc := range cases {
		inMemory, err := Validate(bytes.NewReader([]byte(doc)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		// A reader of no known in-memory type goes through the readahead.
		streamed, err := Validate(struct{ io.Reader }{strings.NewReader(doc)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(inMemory, streamed) {
			t.Errorf("%s: results differ\nin memory: %+v\nstreamed:  %+v", name, inMemory.Findings, streamed.Findings)
		}
		// Events may have properties of their own; a huge number and bad
		// UTF-8 are errors wherever they are.
		bad := strings.HasPrefix(name, "number") || strings.HasPrefix(name, "utf8") || strings.HasPrefix(name, "edge")
		if bad == inMemory.Valid() {
			t.Errorf("%s: valid = %v, want %v", name, inMemory.Valid(), !bad)
		}
	}
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestChunkCapture checks that bytes captured across chunk boundaries (an
// element handed to the library) are the bytes of the input, with a long
// number in the middle that does not fit in front of a chunk.
func TestChunkCapture(t *testing.T) {
	var doc strings.Builder
	for i := 0; doc.Len() < 3*readaheadChunk; i++ {
		if i == 5000 {
			doc.WriteString(strings.Repeat("9", 2*readaheadPad) + " ")
		}
		doc.WriteString(`"w` + itoa(i) + `" `)
	}
	in := doc.String()
	ra, stop := newReadahead(struct{ io.Reader }{strings.NewReader(in)})
	defer stop()
	s := newChunkScanner(ra)
	var buf []byte
	tokens := 0
	from := -1
	for {
		c, ok := s.peek()
		if !ok {
			break
		}
		if tokens == 10 {
			s.startCapture(&buf)
			from = int(s.here().off)
		}
		var err error
		if c == '"' {
			err = s.readString()
		} else {
			_, err = s.readNumber()
		}
		if err != nil {
			t.Fatal(err)
		}
		tokens++
	}
	got := s.endCapture()
	if want := in[from:]; string(got) != strings.TrimRight(want, " ") && string(got) != want {
		t.Errorf("captured %d bytes from offset %d, want %d; differ at %d", len(got), from, len(want), mismatch(got, want))
	}
}

func mismatch(a []byte, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSizeHint checks that the size hint, right or wrong, changes how the
// id table is sized and nothing else.
func TestSizeHint(t *testing.T) {
	doc := synthTrace(t, 3000, 3)
	dup := bytes.Replace(doc, []byte(`"id":"e20"`), []byte(`"id":"e19"`), 1) // a repeated id
	for _, in := range [][]byte{doc, dup} {
		want, err := Validate(bytes.NewReader(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, hint := range []int64{1, int64(len(in)) / 10, int64(len(in)), 100 * int64(len(in)), 1 << 50} {
			got, err := Validate(bytes.NewReader(in), Options{SizeHint: hint})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("SizeHint %d: %v, want %v", hint, got.Findings, want.Findings)
			}
		}
	}
}
