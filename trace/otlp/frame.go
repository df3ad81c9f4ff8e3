package otlp

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/masrl/masrl/trace"
)

// Format is the format of an input.
type Format int

const (
	// FormatAuto tells the form by the content, after a zstd or gzip
	// compression of the whole input is undone: OTLP/JSON when the first
	// byte that is not blank (space, tab, CR, LF) is '{' and the next one
	// '"' or '}', or when there is none; a bare protobuf request
	// (FormatProtoBody) when the first byte is 0x0a, the tag of its
	// resourceSpans; the collector's framed records (FormatProto)
	// otherwise. A framed record starting with 0x0a would be at least
	// 160 MiB long, beyond the default --max-record: use FormatProto for
	// such a file.
	FormatAuto Format = iota
	// FormatJSON is OTLP/JSON: one ExportTraceServiceRequest per line,
	// or one whole document.
	FormatJSON
	// FormatProto is what the collector's file exporter writes with
	// `format: proto`: records, each a 4-byte big-endian length and then
	// that many bytes of a protobuf ExportTraceServiceRequest (or
	// TracesData, which is the same message on the wire).
	FormatProto
	// FormatProtoBody is one protobuf ExportTraceServiceRequest, bare:
	// the body every OTLP/HTTP exporter posts, and what Python's
	// encode_spans(spans).SerializeToString() returns.
	FormatProtoBody
)

// ParseFormat reads "auto", "json", "proto" or "body".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "auto":
		return FormatAuto, nil
	case "json":
		return FormatJSON, nil
	case "proto":
		return FormatProto, nil
	case "body":
		return FormatProtoBody, nil
	}
	return FormatAuto, fmt.Errorf("format %q: want auto, json, proto or body", s)
}

// detect tells the form of the input by its first bytes, without
// consuming them (see FormatAuto).
func detect(br *bufio.Reader) (Format, error) {
	first, err := br.Peek(1)
	if len(first) == 0 {
		if err == io.EOF {
			return FormatJSON, nil // empty: nothing to read either way
		}
		return FormatJSON, err
	}
	body := first[0] == 0x0a
	k := nonBlank(br, 0)
	switch {
	case k < 0:
		// Blank to the end, or for a megabyte (no request starts so):
		// JSON, which reports what it finds.
		return FormatJSON, nil
	case peekAt(br, k) == '{':
		// A request body whose first resourceSpans is 123 bytes long
		// reads "\n{": JSON goes on with a name or ends.
		if next := nonBlank(br, k+1); !body || next < 0 || peekAt(br, next) == '"' || peekAt(br, next) == '}' {
			return FormatJSON, nil
		}
		return FormatProtoBody, nil
	case body:
		return FormatProtoBody, nil
	}
	return FormatProto, nil
}

// nonBlank returns the index of the first byte at or after i that is not
// blank, within the reader's buffer; -1 when the input or the buffer ends
// first.
func nonBlank(br *bufio.Reader, i int) int {
	for n := i + 1; n <= br.Size(); n++ {
		b, _ := br.Peek(n)
		if len(b) < n {
			return -1
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return n - 1
	}
	return -1
}

// peekAt returns the byte at index i of the buffered input.
func peekAt(br *bufio.Reader, i int) byte {
	b, _ := br.Peek(i + 1)
	return b[i]
}

// formsTried is added to the first error of an input whose form was told
// by its content, since it may be none of them: it lists the forms masrl
// reads and how each is told, and shows the input's first bytes.
func formsTried(head []byte, read Format, compressed string) string {
	form := map[Format]string{FormatJSON: "OTLP/JSON", FormatProto: "the collector's framed protobuf records", FormatProtoBody: "a bare protobuf request"}[read]
	if compressed != "" {
		form += ", after undoing its " + compressed + " compression"
	}
	return fmt.Sprintf(" (masrl reads OTLP/JSON or JSON Lines of it, which starts with '{'; a bare protobuf ExportTraceServiceRequest as OTLP/HTTP posts it, "+
		"which starts with 0x0a; and the collector's protobuf records, each a 4-byte big-endian length and a request; each of them also compressed "+
		"whole with gzip or zstd. The input starts with %s, so it was read as %s)", describeBytes(head), form)
}

// describeBytes shows up to 16 bytes in hex and as text, with '.' for the
// bytes that are not printable ASCII: 68 65 6c 6c 6f 0a "hello.".
func describeBytes(b []byte) string {
	b = b[:min(len(b), 16)]
	if len(b) == 0 {
		return "nothing"
	}
	var hexs []string
	text := make([]byte, len(b))
	for i, c := range b {
		hexs = append(hexs, fmt.Sprintf("%02x", c))
		text[i] = '.'
		if c >= 0x20 && c < 0x7f {
			text[i] = c
		}
	}
	return strings.Join(hexs, " ") + " " + strconv.Quote(string(text))
}

// errNoProto is the diagnostic of a build without the protobuf reader.
const errNoProto = "this build reads OTLP/JSON only, not protobuf: import the collector's protobuf records with masrl trace import"

// minChunk is how much of a record is read, at least, before the buffer
// grows (doubling): a length that promises more than the input holds
// costs no more memory than the input.
const minChunk = 64 << 10

// splitRecords cuts the collector's protobuf stream into records and
// stops when send returns false. A length cut short, or one that runs
// past the end of the input, is reported as an error of that record; all
// records before it are read.
//
// A record longer than lim.MaxRecord, or a compressed input that expands
// beyond lim.MaxDecompressed, ends the input with an error of that record.
// A record's bytes are read as they arrive: the length is a promise, and
// the buffer grows only with the bytes that keep it.
//
// note, when not empty, is added to an error of the first record (see
// formsTried).
func splitRecords(br *bufio.Reader, name string, note string, lim trace.Limits, send func(*unit) bool) error {
	var off int64
	var le *trace.LimitError // out of the loop: errors.As makes it escape
	for rec := 1; ; rec++ {
		fail := func(format string, args ...any) error {
			msg := fmt.Sprintf(format, args...)
			if rec == 1 {
				msg += note
			}
			send(&unit{rec: true, line: rec, off: off,
				diags: []Diagnostic{{Severity: Error, File: name, Record: rec, Byte: off, Message: msg}}})
			return nil
		}
		var hdr [4]byte
		n, err := io.ReadFull(br, hdr[:])
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fail("the input ends %d bytes into the record's 4-byte length", n)
		case errors.As(err, &le):
			return fail("%v", le)
		case err != nil:
			return err
		}
		size := int64(binary.BigEndian.Uint32(hdr[:]))
		if size > lim.MaxRecord {
			return fail("the record's length is %d bytes, more than %s, the most masrl reads of a record (raise it with --max-record)", size, trace.FormatSize(lim.MaxRecord))
		}
		data := make([]byte, 0, min(size, int64(max(br.Buffered(), minChunk))))
		for int64(len(data)) < size {
			if len(data) == cap(data) {
				data = slices.Grow(data, int(min(int64(cap(data)), size-int64(len(data)))))
			}
			n, err := br.Read(data[len(data):int(min(int64(cap(data)), size))])
			data = data[:len(data)+n]
			if err == io.EOF {
				return fail("the record's length is %d bytes, but the input ends %d bytes after it", size, len(data))
			}
			if errors.As(err, &le) {
				return fail("%v", le)
			}
			if err != nil {
				return err
			}
		}
		if !send(&unit{data: data, rec: true, line: rec, off: off}) {
			return nil
		}
		off += 4 + size
	}
}

// zstdMagic starts every zstd frame: a whole compressed file, or a record
// of the collector's file exporter with compression: zstd.
const zstdMagic = "\x28\xb5\x2f\xfd"

// gzipMagic starts every gzip member.
const gzipMagic = "\x1f\x8b"

// readBody reads the whole input as one bare protobuf request, of at most
// lim.MaxRecord bytes, and sends it as record 1; an input beyond the limit
// is an error with note (see formsTried) added.
func readBody(br *bufio.Reader, name string, note string, lim trace.Limits, send func(*unit) bool) error {
	fail := func(msg string) error {
		send(&unit{rec: true, line: 1, diags: []Diagnostic{{Severity: Error, File: name, Record: 1, Message: msg + note}}})
		return nil
	}
	data, err := trace.ReadAtMost(br, lim.MaxRecord)
	var le *trace.LimitError
	switch {
	case err == trace.ErrLimit:
		return fail(fmt.Sprintf("the input, read as one protobuf request, is longer than %s, the most masrl reads of a request (raise it with --max-record)", trace.FormatSize(lim.MaxRecord)))
	case errors.As(err, &le):
		return fail(le.Error())
	case err != nil:
		return err
	}
	send(&unit{data: data, rec: true, line: 1})
	return nil
}
