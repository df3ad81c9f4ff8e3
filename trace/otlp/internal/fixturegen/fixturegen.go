//go:build !(js && wasm)

package fixturegen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// SpansPerLine is how many spans the client writes per line; a trace's
// spans are thus spread over several lines, interleaved with the other
// trace's.
const SpansPerLine = 3

// Write runs the simulation in dialect and writes OTLP/JSON lines to w.
func Write(w io.Writer, dialect string) error { return run(w, dialect, jsonLine) }

// WriteProto runs the simulation in dialect and writes the collector's
// protobuf records to w.
func WriteProto(w io.Writer, dialect string) error { return run(w, dialect, protoRecord) }

func run(w io.Writer, dialect string, encode func(*tracepb.TracesData) ([]byte, error)) error {
	d, ok := dialects()[dialect]
	if !ok {
		return fmt.Errorf("unknown dialect %q", dialect)
	}
	ctx := context.Background()
	client := &lineClient{w: w, encode: encode}
	exp, err := otlptrace.New(ctx, client)
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSyncer(exp),
		sdktrace.WithIDGenerator(&counterIDs{dialect: uint64(slices.Index(Dialects(), dialect) + 1)}),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "masrl-fixture-"+dialect))),
	)
	sim{tr: tp.Tracer("github.com/masrl/masrl/trace/otlp/internal/fixturegen"), d: d}.run(ctx)
	if err := tp.Shutdown(ctx); err != nil {
		return err
	}
	return client.err
}

// at is a time of the simulated run, which starts at a fixed moment:
// fixtures do not depend on when they are generated.
func at(ms int) time.Time {
	return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
}

// counterIDs makes trace and span ids from counters, so that two runs
// write the same bytes.
type counterIDs struct {
	dialect       uint64 // in the trace ids, so that the fixtures' traces differ
	mu            sync.Mutex
	traces, spans uint64
}

func (g *counterIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	g.traces++
	var t trace.TraceID
	binary.BigEndian.PutUint64(t[:8], 0x4d4153524c000000|g.dialect<<8)
	binary.BigEndian.PutUint64(t[8:], g.traces)
	g.mu.Unlock()
	return t, g.NewSpanID(ctx, t)
}

func (g *counterIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.spans++
	var s trace.SpanID
	binary.BigEndian.PutUint64(s[:], 0x5350000000000000|g.spans)
	return s
}

// lineClient is an otlptrace.Client that writes each batch of
// ExportTraceServiceRequest as encode makes it instead of sending it.
type lineClient struct {
	mu      sync.Mutex
	w       io.Writer
	encode  func(*tracepb.TracesData) ([]byte, error)
	pending []*tracepb.ResourceSpans
	err     error
}

func (c *lineClient) Start(context.Context) error { return nil }

func (c *lineClient) Stop(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush()
	return c.err
}

func (c *lineClient) UploadTraces(_ context.Context, rs []*tracepb.ResourceSpans) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending = append(c.pending, rs...)
	if len(c.pending) >= SpansPerLine {
		c.flush()
	}
	return c.err
}

func (c *lineClient) flush() {
	if len(c.pending) == 0 || c.err != nil {
		return
	}
	b, err := c.encode(&tracepb.TracesData{ResourceSpans: c.pending})
	c.pending = nil
	if err != nil {
		c.err = err
		return
	}
	_, c.err = c.w.Write(b)
}

// protoRecord is one record of the collector's file exporter with
// `format: proto`: the message's length as 4 bytes, big-endian, then the
// message. TracesData has the wire layout of ExportTraceServiceRequest.
func protoRecord(td *tracepb.TracesData) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(td)
	if err != nil {
		return nil, err
	}
	if len(b) > math.MaxUint32 {
		return nil, fmt.Errorf("a record of %d bytes does not fit a 4-byte length", len(b))
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...), nil
}

// jsonLine is one line of OTLP/JSON: protojson, with the byte ids turned
// from base64 into hex as OTLP/JSON requires.
func jsonLine(td *tracepb.TracesData) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(td)
	if err != nil {
		return nil, err
	}
	// protojson varies its whitespace on purpose; re-encoding through a
	// generic value makes the bytes stable and converts the ids.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if err := hexIDs(v); err != nil {
		return nil, err
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// hexIDs rewrites traceId, spanId and parentSpanId from base64 to hex.
func hexIDs(v any) error {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "traceId", "spanId", "parentSpanId":
				s, _ := e.(string)
				b, err := base64.StdEncoding.DecodeString(s)
				if err != nil {
					return fmt.Errorf("%s %q: %w", k, s, err)
				}
				x[k] = hex.EncodeToString(b)
			default:
				if err := hexIDs(e); err != nil {
					return err
				}
			}
		}
	case []any:
		for _, e := range x {
			if err := hexIDs(e); err != nil {
				return err
			}
		}
	}
	return nil
}
