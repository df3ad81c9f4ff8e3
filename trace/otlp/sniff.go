package otlp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/masrl/masrl/trace"
)

// sniffHead is how many bytes of a compressed input IsSpans expands to
// tell its form: a record's length and tag, or an OTLP/JSON object's
// first key, come well before.
const sniffHead = 64 << 10

// IsSpans reports whether the input br starts is OpenTelemetry spans in a
// form Read takes with FormatAuto, so that the trace commands can import
// a span file instead of reading it as a broken trace. It only peeks: br
// is left as it was. The form is told as Read tells it (FormatAuto), after
// a gzip or zstd compression of the whole input is undone, and then
// confirmed, since a file that is no trace at all would otherwise pass for
// framed records: OTLP/JSON is an object whose first key is
// resourceSpans; a bare request starts with that field's tag (0x0a); a
// framed record's message starts with it too, or with a zstd frame.
// Whatever br's buffer holds is looked at, so it should be large (Read's
// is 1 MiB).
func IsSpans(br *bufio.Reader) bool {
	head, _ := br.Peek(br.Size())
	if len(head) == 0 {
		return false
	}
	inner := bufio.NewReaderSize(bytes.NewReader(head), len(head))
	if dec, c, compressed, err := decompressed(inner, trace.Limits{MaxDecompressed: sniffHead}); err == nil && compressed != "" {
		defer c.Close()
		out, _ := io.ReadAll(io.LimitReader(dec, sniffHead))
		if len(out) == 0 {
			return false
		}
		inner = bufio.NewReaderSize(bytes.NewReader(out), len(out))
	}
	format, err := detect(inner)
	if err != nil {
		return false
	}
	b, _ := inner.Peek(inner.Buffered())
	switch format {
	case FormatProtoBody:
		return true
	case FormatProto:
		return len(b) > 4 && (b[4] == 0x0a || bytes.HasPrefix(b[4:], []byte(zstdMagic)))
	}
	return firstKeyIsResourceSpans(b)
}

// firstKeyIsResourceSpans reports whether the JSON in b starts with an
// object whose first key is resourceSpans, as every OTLP/JSON export
// request does; b may be cut short after the key.
func firstKeyIsResourceSpans(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	t, err := d.Token()
	return err == nil && t == "resourceSpans"
}
