//go:build !(js && wasm)

package otlp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/masrl/masrl/trace"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// This file is left out of the WebAssembly build: the protobuf runtime and
// the OTLP descriptors would make the module megabytes larger, and the
// page hands the module text, not bytes.

// protoBuild says that this build reads OTLP protobuf.
const protoBuild = true

// recordDecoder is a parser's zstd decoder of records, made at the first
// compressed record and reused for the next.
type recordDecoder = *zstd.Decoder

// closeDecoders releases the parser's zstd decoder.
func (p *parser) closeDecoders() {
	if p.zstd != nil {
		p.zstd.Close()
		p.zstd = nil
	}
}

// parseRecord decodes one protobuf record (number rec, at byte off) into
// the same spans the JSON reader makes, and reports whether the record was
// a message at all. The message is decoded whole with the official types,
// prompt text included, but a span keeps only what the mapping reads, as
// from JSON.
func (p *parser) parseRecord(data []byte, rec int, off int64) bool {
	p.spans, p.diags = make([]span, 0, len(p.spans)), nil
	fail := func(ptr, format string, args ...any) {
		p.diags = append(p.diags, Diagnostic{Severity: Error, File: p.name, Record: rec, Byte: off, Pointer: ptr,
			Message: fmt.Sprintf(format, args...)})
	}
	if bytes.HasPrefix(data, []byte(zstdMagic)) {
		// The collector's file exporter with `compression: zstd` writes
		// each export as a record holding one zstd frame, of protobuf
		// (format: proto) or of JSON (format: json).
		// It is read as a stream, into a buffer that grows as bytes come
		// out, up to MaxRecord: DecodeAll would allocate the content size
		// the frame announces, whatever follows.
		if p.zstd == nil {
			// The window is bounded by the record too: a frame in
			// one segment has its content as its window, which the
			// decoder allocates when the frame starts.
			window := uint64(min(max(p.limits.MaxRecord, 1<<10), maxZstdWindow))
			dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(window), zstd.WithDecoderMaxMemory(window))
			if err != nil {
				fail("", "zstd: %v", err)
				return false
			}
			p.zstd = dec
		}
		if err := p.zstd.Reset(bytes.NewReader(data)); err != nil {
			fail("", "the record starts as a zstd frame but does not decompress (%v)", err)
			return false
		}
		var err error
		data, err = trace.ReadAtMost(p.zstd, p.limits.MaxRecord)
		if errors.Is(err, trace.ErrLimit) || errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			fail("", "the record's zstd frame expands to more than %s, the most masrl reads of a record (raise it with --max-record)", trace.FormatSize(p.limits.MaxRecord))
			return false
		}
		if err != nil {
			fail("", "the record starts as a zstd frame but does not decompress (%v)", err)
			return false
		}
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			p.parseUnit(data, func(int64) (int, int) { return rec, 0 })
			for i := range p.spans {
				p.spans[i].off = off
			}
			for i := range p.diags {
				p.diags[i].Line, p.diags[i].Col, p.diags[i].Record, p.diags[i].Byte = 0, 0, rec, off
				p.diags[i].Message += " (in the record's zstd-compressed JSON)"
			}
			return true
		}
	}
	var req tracepb.TracesData // the wire layout of ExportTraceServiceRequest
	if err := (proto.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &req); err != nil {
		// protobuf-go varies the blank after "proto:" on purpose.
		msg := strings.TrimLeft(strings.TrimPrefix(err.Error(), "proto:"), " \u00a0")
		fail("", "malformed protobuf: the record is not an ExportTraceServiceRequest (%s)", msg)
		return false
	}
	for i, rs := range req.ResourceSpans {
		service := ""
		for _, kv := range rs.GetResource().GetAttributes() {
			if v := protoValue(kv.GetValue()); kv.GetKey() == "service.name" && v.kind == 's' {
				service = v.s
			}
		}
		for j, ss := range rs.GetScopeSpans() {
			for k, ps := range ss.GetSpans() {
				ptr := fmt.Sprintf("/resourceSpans/%d/scopeSpans/%d/spans/%d", i, j, k)
				p.protoSpan(ps, service, rec, off, func(at, format string, args ...any) { fail(ptr+at, format, args...) })
			}
		}
	}
	return true
}

// protoSpan maps one span; fail reports what makes it unusable, at the
// span's pointer followed by at.
func (p *parser) protoSpan(ps *tracepb.Span, service string, rec int, off int64, fail func(at, format string, args ...any)) {
	s := span{name: p.internString(ps.GetName()), start: ps.GetStartTimeUnixNano(), end: ps.GetEndTimeUnixNano(),
		service: service, file: p.file, line: int32(min(rec, 1<<31-1)), off: off}
	bad, badLink := false, false
	id := func(what string, src, dst []byte, bad *bool) bool {
		switch len(src) {
		case 0:
			return false
		case len(dst):
			copy(dst, src)
			return true
		}
		fail("", "%s is %d bytes, not %d", what, len(src), len(dst))
		*bad = true
		return false
	}
	haveTrace := id("traceId", ps.GetTraceId(), s.trace[:], &bad)
	haveID := id("spanId", ps.GetSpanId(), s.id[:], &bad)
	s.hasParent = id("parentSpanId", ps.GetParentSpanId(), s.parent[:], &bad)
	var al alRewards
	for _, kv := range ps.GetAttributes() {
		if key := kv.GetKey(); wantAttr(key) {
			s.setAttr(p.internString(key), p.protoAttr(kv.GetValue()), &al)
		}
	}
	for k, e := range ps.GetEvents() {
		if t := e.GetTimeUnixNano(); t > maxPlausibleNanos {
			fail(fmt.Sprintf("/events/%d/timeUnixNano", k), "%s", implausibleTime("timeUnixNano", t))
			continue
		}
		var attrs eventAttrs
		for _, kv := range e.GetAttributes() {
			if wantEventAttr(kv.GetKey()) {
				attrs.set(kv.GetKey(), p.protoAttr(kv.GetValue()))
			}
		}
		s.addEvent(p.internString(e.GetName()), e.GetTimeUnixNano(), attrs)
	}
	for _, l := range ps.GetLinks() {
		var lk link
		// A bad link id drops the link, not the span, as from JSON.
		if id("link traceId", l.GetTraceId(), lk.trace[:], &badLink) && id("link spanId", l.GetSpanId(), lk.span[:], &badLink) {
			s.links = append(s.links, lk)
		}
	}
	if !haveTrace || !haveID {
		if !bad {
			fail("", "%s", missingID(s.name, haveTrace))
		}
		return
	}
	for _, t := range []struct {
		name string
		ns   uint64
	}{{"startTimeUnixNano", s.start}, {"endTimeUnixNano", s.end}} {
		if t.ns > maxPlausibleNanos {
			fail("/"+t.name, "%s", implausibleTime(t.name, t.ns))
			bad = true
		}
	}
	if bad {
		return
	}
	s.spanKind = int8(min(max(ps.GetKind(), 0), 5))
	s.setStatus(int64(ps.GetStatus().GetCode()))
	s.rewards = al.scores(s.end)
	p.spans = append(p.spans, s)
}

// protoAttr is protoValue with its string interned.
func (p *parser) protoAttr(v *commonpb.AnyValue) attrValue {
	a := protoValue(v)
	if a.kind == 's' {
		a.s = p.internString(a.s)
	}
	return a
}

// protoValue reads an AnyValue of the scalar kinds; arrays, key-value
// lists and bytes are kind 0, as from JSON.
func protoValue(v *commonpb.AnyValue) attrValue {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return attrValue{kind: 's', s: x.StringValue}
	case *commonpb.AnyValue_IntValue:
		return attrValue{kind: 'i', i: x.IntValue}
	case *commonpb.AnyValue_DoubleValue:
		return attrValue{kind: 'd', d: x.DoubleValue}
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return attrValue{kind: 'b', i: 1}
		}
		return attrValue{kind: 'b'}
	}
	return attrValue{}
}

// maxZstdWindow is the largest zstd window (the history a decoder keeps)
// accepted, as the zstd command's default is: a frame that asks for more
// is an error, not a gigabyte of history.
const maxZstdWindow = 128 << 20

// decompressed reads a zstd- or gzip-compressed input (a whole file
// compressed, of any form) through a decoder that stops after
// lim.MaxDecompressed bytes; other input is returned as it is. compressed
// names the compression, "" for none.
func decompressed(br *bufio.Reader, lim trace.Limits) (out *bufio.Reader, c io.Closer, compressed string, err error) {
	head, _ := br.Peek(len(zstdMagic))
	var r io.Reader
	switch {
	case bytes.HasPrefix(head, []byte(zstdMagic)):
		// No window need be larger than all the input may expand to.
		window := uint64(min(max(lim.MaxDecompressed, 1<<10), maxZstdWindow))
		dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(window), zstd.WithDecoderMaxMemory(window))
		if err != nil {
			return nil, nil, "", fmt.Errorf("zstd: %w", err)
		}
		r, c, compressed = zstdReader{dec}, closer(dec.Close), "zstd"
	case bytes.HasPrefix(head, []byte(gzipMagic)):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, "", fmt.Errorf("the input starts as gzip but does not decompress: %w", err)
		}
		r, c, compressed = gzipReader{gz}, gz, "gzip"
	default:
		return br, io.NopCloser(nil), "", nil
	}
	lr := &trace.LimitedReader{R: r, Max: lim.MaxDecompressed, What: "the decompressed " + compressed + " input", Flag: "--max-decompressed"}
	return bufio.NewReaderSize(lr, 1<<20), c, compressed, nil
}

// gzipReader says, in its errors, that the input was gzip-compressed.
type gzipReader struct{ gz *gzip.Reader }

func (z gzipReader) Read(p []byte) (int, error) {
	n, err := z.gz.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the gzip-compressed input does not decompress: %w", err)
	}
	return n, err
}

// zstdReader says, in its errors, that the input was zstd-compressed.
type zstdReader struct{ dec *zstd.Decoder }

func (z zstdReader) Read(p []byte) (int, error) {
	n, err := z.dec.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the zstd-compressed input does not decompress: %w", err)
	}
	return n, err
}

type closer func()

func (c closer) Close() error { c(); return nil }
