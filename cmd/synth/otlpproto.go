package main

import (
	"bufio"
	"encoding/binary"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// protoSink writes what the collector's file exporter writes with
// `format: proto`: per batch, a 4-byte big-endian length and then the
// request, marshalled with the official types (TracesData has the wire
// layout of ExportTraceServiceRequest).
type protoSink struct {
	w     *bufio.Writer
	spans []*tracepb.Span
	buf   []byte
}

func (p *protoSink) add(tr *genTrace, s genSpan, attrs []genAttr, base int64) {
	id := func(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
	sp := &tracepb.Span{
		TraceId: append([]byte(nil), tr.id[:]...), SpanId: id(s.id), Flags: 257, Name: spanName(s),
		Kind:              tracepb.Span_SPAN_KIND_INTERNAL,
		StartTimeUnixNano: uint64(base + s.start), EndTimeUnixNano: uint64(base + s.end),
		Status: &tracepb.Status{},
	}
	if s.parent != 0 {
		sp.ParentSpanId = id(s.parent)
	}
	for _, a := range attrs {
		v := &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: a.s}}
		if a.isInt {
			v = &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: a.i}}
		}
		sp.Attributes = append(sp.Attributes, &commonpb.KeyValue{Key: a.key, Value: v})
	}
	p.spans = append(p.spans, sp)
}

func (p *protoSink) flush() error {
	if len(p.spans) == 0 {
		return nil
	}
	req := &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{{Key: "service.name",
			Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: "synth-agents"}}}}},
		ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: "synth"}, Spans: p.spans}},
	}}}
	var err error
	p.buf, err = proto.MarshalOptions{Deterministic: true}.MarshalAppend(binary.BigEndian.AppendUint32(p.buf[:0], 0), req)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint32(p.buf, uint32(len(p.buf)-4))
	p.spans = p.spans[:0]
	_, err = p.w.Write(p.buf)
	return err
}
