package otlp

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/masrl/masrl/trace"
)

// Format is the format of an input.
type Format int

const (
	// FormatAuto tells the format by the content: OTLP/JSON when the
	// first byte that is not blank (space, tab, CR, LF) is '{', or when
	// there is none; the collector's protobuf records otherwise. The
	// first byte of a record is the high byte of its 4-byte length, so a
	// protobuf file is taken for JSON only when its first record is at
	// least 144 MiB (0x09000000 bytes) and the bytes of its length are
	// blanks up to a '{': use FormatProto for such a file.
	FormatAuto Format = iota
	// FormatJSON is OTLP/JSON: one ExportTraceServiceRequest per line,
	// or one whole document.
	FormatJSON
	// FormatProto is what the collector's file exporter writes with
	// `format: proto`: records, each a 4-byte big-endian length and then
	// that many bytes of a protobuf ExportTraceServiceRequest (or
	// TracesData, which is the same message on the wire).
	FormatProto
)

// ParseFormat reads "auto", "json" or "proto".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "auto":
		return FormatAuto, nil
	case "json":
		return FormatJSON, nil
	case "proto":
		return FormatProto, nil
	}
	return FormatAuto, fmt.Errorf("format %q: want auto, json or proto", s)
}

// detect tells the format of the input by its first byte that is not
// blank, without consuming it.
func detect(br *bufio.Reader) (Format, error) {
	for n := 1; n <= br.Size(); n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if err == io.EOF {
				return FormatJSON, nil // empty or blank: nothing to read either way
			}
			return FormatJSON, err
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return FormatJSON, nil
		}
		return FormatProto, nil
	}
	return FormatJSON, nil // a megabyte of blanks is no protobuf record
}

// detectedProto is added to the first diagnostic of an input that was
// read as protobuf because it does not look like JSON, since it may be
// neither.
const detectedProto = " (the input does not start with '{', so it was read as OTLP protobuf as the collector's file exporter writes it: records of a 4-byte big-endian length and a protobuf ExportTraceServiceRequest)"

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
func splitRecords(br *bufio.Reader, name string, auto bool, lim trace.Limits, send func(*unit) bool) error {
	var off int64
	var le *trace.LimitError // out of the loop: errors.As makes it escape
	for rec := 1; ; rec++ {
		fail := func(format string, args ...any) error {
			msg := fmt.Sprintf(format, args...)
			if auto && rec == 1 {
				msg += detectedProto
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
