//go:build !(js && wasm)

package otlp

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/masrl/masrl/trace"
	"github.com/masrl/masrl/trace/otlp/internal/fixturegen"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// frame is one record of the collector's protobuf file: a 4-byte
// big-endian length, then msg.
func frame(msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

func unhex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

// protoRecord is line's spans as one protobuf record.
func protoRecord(t testing.TB, spans ...sp) []byte {
	t.Helper()
	var out []*tracepb.Span
	for _, s := range spans {
		ps := &tracepb.Span{TraceId: unhex(s.trace), SpanId: unhex(s.id), ParentSpanId: unhex(s.parent), Name: s.name,
			StartTimeUnixNano: uint64(s.start) * 1e6, EndTimeUnixNano: uint64(s.end) * 1e6}
		keys := make([]string, 0, len(s.attrs))
		for k := range s.attrs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := &commonpb.AnyValue{}
			switch x := s.attrs[k].(type) {
			case string:
				v.Value = &commonpb.AnyValue_StringValue{StringValue: x}
			case int:
				v.Value = &commonpb.AnyValue_IntValue{IntValue: int64(x)}
			case float64:
				v.Value = &commonpb.AnyValue_DoubleValue{DoubleValue: x}
			}
			ps.Attributes = append(ps.Attributes, &commonpb.KeyValue{Key: k, Value: v})
		}
		for _, l := range s.links {
			ps.Links = append(ps.Links, &tracepb.Span_Link{TraceId: unhex(l[0]), SpanId: unhex(l[1])})
		}
		out = append(out, ps)
	}
	return marshalRecord(t, &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: out}}}}})
}

func marshalRecord(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return frame(b)
}

// diagKey is a diagnostic without its position, to compare the
// diagnostics of the two formats.
func diagKey(d Diagnostic) string {
	return d.Severity.String() + " " + d.TraceID + " " + d.SpanID + " " + d.Message
}

// TestImportProtoFixtures imports the protobuf form of every fixture: its
// traces are byte for byte those of the JSON form and the golden files,
// they validate, and its diagnostics are the JSON form's, placed at
// records instead of lines.
func TestImportProtoFixtures(t *testing.T) {
	for _, d := range fixturegen.Dialects() {
		t.Run(d, func(t *testing.T) {
			jname, pname := filepath.Join("testdata", d+".otlp.jsonl"), filepath.Join("testdata", d+".otlp.binpb")
			jdata, err := os.ReadFile(jname)
			if err != nil {
				t.Fatal(err)
			}
			pdata, err := os.ReadFile(pname)
			if err != nil {
				t.Fatal(err)
			}
			jtraces, jorder, jdiags := importAll(t, jname, jdata, Options{})
			for _, format := range []Format{FormatAuto, FormatProto} {
				ptraces, porder, pdiags := importAll(t, pname, pdata, Options{Format: format})
				if !slices.Equal(porder, jorder) || len(porder) != 2 {
					t.Fatalf("format %d: traces %v, the JSON form gives %v", format, porder, jorder)
				}
				for _, id := range porder {
					golden, err := os.ReadFile(filepath.Join("testdata", "golden", d, id+".json"))
					if err != nil {
						t.Fatal(err)
					}
					if got := ptraces[id].JSON; !bytes.Equal(got, jtraces[id].JSON) || !bytes.Equal(got, golden) {
						t.Errorf("format %d: trace %s differs from the JSON form's or its golden file:\n%s", format, id, got)
					}
					if bytes.Contains(ptraces[id].JSON, []byte(fixturegen.Secret)) {
						t.Errorf("trace %s carries prompt text", id)
					}
					res, err := trace.Validate(bytes.NewReader(ptraces[id].JSON), trace.Options{Strict: true})
					if err != nil {
						t.Fatal(err)
					}
					if !res.Valid() || len(res.Findings) > 0 {
						t.Errorf("trace %s: %v", id, res.Findings)
					}
				}
				var got, want []string
				for _, dg := range pdiags {
					got = append(got, diagKey(dg))
					if dg.Record < 1 || dg.Line != 0 || dg.Byte < 0 || dg.Byte >= int64(len(pdata)) || dg.File != pname {
						t.Errorf("diagnostic not placed at a record: %#v", dg)
					}
					if strings.Contains(dg.String(), fixturegen.Secret) {
						t.Errorf("a diagnostic carries prompt text: %s", dg)
					}
				}
				for _, dg := range jdiags {
					want = append(want, diagKey(dg))
				}
				if !slices.Equal(got, want) || len(got) == 0 {
					t.Errorf("format %d: diagnostics\n%s\nthe JSON form's:\n%s", format, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}

// TestProtoRecordPositions: a span's warning names its record and the
// byte at which the record starts.
func TestProtoRecordPositions(t *testing.T) {
	first := protoRecord(t, agentSpan(tA, 1, 0, "boss", 0, 100))
	second := protoRecord(t, toolSpan(tA, 2, 9, "search", 10, 20))
	traces, _, diags := importAll(t, "f.binpb", slices.Concat(first, second), Options{})
	mustValidate(t, traces)
	want := "f.binpb:record 2 (byte " + strconv.Itoa(len(first)) + "): warning: span " + sid(2) +
		": parent span " + sid(9) + " is not in the input: placed under the root span " + sid(1)
	if len(traces) != 1 || len(diags) != 1 || diags[0].String() != want {
		t.Errorf("%d traces, diagnostics %v\nwant %s", len(traces), diags, want)
	}
}

// noteMark, in a wanted diagnostic, stands for what formsTried adds.
const noteMark = "{forms tried}"

// TestProtoBadInput: each kind of damage gives its error at its record,
// and every record that can be read is read.
func TestProtoBadInput(t *testing.T) {
	good := protoRecord(t, agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "search", 10, 20))
	g := strconv.Itoa(len(good))
	noTrace := marshalRecord(t, &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{
		{Spans: []*tracepb.Span{{TraceId: unhex(tB), SpanId: unhex(sid(1)), Name: "ok"}}},
		{Spans: []*tracepb.Span{{SpanId: unhex(sid(1)), Name: "lost"}, {TraceId: []byte{1, 2, 3}, SpanId: unhex(sid(2)), Name: "short"}}},
	}}}})
	cases := []struct {
		name   string
		in     []byte
		format Format
		traces int
		want   []string
	}{
		{"length cut short", slices.Concat(good, []byte{0, 0}), FormatProto, 1,
			[]string{"f:record 2 (byte " + g + "): error: the input ends 2 bytes into the record's 4-byte length"}},
		{"length past the end", slices.Concat(good, []byte{0, 0, 3, 232}, []byte("0123456789")), FormatProto, 1,
			[]string{"f:record 2 (byte " + g + "): error: the record's length is 1000 bytes, but the input ends 10 bytes after it"}},
		{"bad message, then a good one", slices.Concat(frame([]byte{0x0a, 0x05, 0x01}), good), FormatProto, 1,
			[]string{"f:record 1 (byte 0): error: malformed protobuf: the record is not an ExportTraceServiceRequest (cannot parse invalid wire-format data)"}},
		{"bad span ids, detected", slices.Concat(noTrace, good), FormatAuto, 1, []string{
			`f:record 1 (byte 0): error: /resourceSpans/0/scopeSpans/1/spans/0: span "lost" has no traceId`,
			"f:record 1 (byte 0): error: /resourceSpans/0/scopeSpans/1/spans/1: traceId is 3 bytes, not 16",
			"f:record 1 (byte 0): warning: span " + sid(1) + ": no agent, tool, model or handoff span in trace " + tB + ": no orchestration trace written",
		}},
		{"a string that is not UTF-8", slices.Concat(frame([]byte{0x0a, 0x07, 0x12, 0x05, 0x12, 0x03, 0x2a, 0x01, 0xff}), good), FormatProto, 1,
			[]string{"f:record 1 (byte 0): error: malformed protobuf: the record is not an ExportTraceServiceRequest (string field contains invalid UTF-8)"}},
		{"empty records", slices.Concat(frame(nil), good, frame(nil)), FormatProto, 1, nil},
		{"text is neither", []byte("hello\n"), FormatAuto, 0, []string{
			"f:record 1 (byte 0): error: the record's length is 1751477356 bytes, more than 64 MiB, the most masrl reads of a record (raise it with --max-record)" + noteMark}},
		{"bad first record, detected", slices.Concat(frame([]byte{0xff}), good), FormatAuto, 1, []string{
			"f:record 1 (byte 0): error: malformed protobuf: the record is not an ExportTraceServiceRequest (cannot parse invalid wire-format data)" + noteMark}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			traces, _, diags := importAll(t, "f", c.in, Options{Format: c.format})
			mustValidate(t, traces)
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			// noteMark stands for formsTried of the input's head.
			for i := range c.want {
				c.want[i] = strings.Replace(c.want[i], noteMark, formsTried(c.in[:min(len(c.in), 16)], FormatProto, ""), 1)
			}
			if len(traces) != c.traces || !slices.Equal(got, c.want) {
				t.Errorf("%d traces, diagnostics:\n%s\nwant %d traces and:\n%s", len(traces), strings.Join(got, "\n"), c.traces, strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestDetectFormat: JSON is told by its '{' after blanks, whatever the
// blanks; anything else is read as protobuf records.
func TestDetectFormat(t *testing.T) {
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "search", 10, 20)}
	rec := protoRecord(t, spans...)
	json := line(spans...)
	for _, in := range [][]byte{rec, []byte(json), []byte(" \r\n\t" + json)} {
		traces, _, diags := importAll(t, "f", in, Options{})
		if len(traces) != 1 || len(diags) != 0 {
			t.Errorf("%q: %d traces, diagnostics %v", in[:min(len(in), 20)], len(traces), diags)
		}
	}
	// Forced, the other format's reader reports the input as malformed.
	if _, _, diags := importAll(t, "f", rec, Options{Format: FormatJSON}); len(diags) == 0 || diags[0].Severity != Error || diags[0].Line != 1 {
		t.Errorf("protobuf read as JSON: %v", diags)
	}
	if _, _, diags := importAll(t, "f", []byte(json), Options{Format: FormatProto}); len(diags) != 1 || diags[0].Record != 1 ||
		strings.Contains(diags[0].Message, "masrl reads OTLP/JSON") {
		t.Errorf("JSON read as protobuf: %v", diags)
	}
}

// FuzzImportProto: no input read as protobuf records makes the importer
// panic, and what fuzzImport checks holds. Seeds are the first records of
// the SDK-written fixtures, the damage of TestProtoBadInput and
// testdata/fuzz/FuzzImportProto; run with go test ./trace/otlp -fuzz
// FuzzImportProto -fuzzminimizetime 5s: the fuzzer minimizes each new
// interesting input (60 s by default) before it runs more, and minimizing
// a seed of a few KB byte by byte at 1-2 ms a run looked like a stall.
func FuzzImportProto(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.otlp.binpb"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		// The first two records: whole files make each run slow.
		if starts := recordStarts(data); len(starts) > 2 {
			data = data[:starts[2]]
		}
		f.Add(data)
	}
	good := protoRecord(f, agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "search", 10, 20))
	f.Add(good)
	f.Add(slices.Concat(good, []byte{0, 0}))
	f.Add(slices.Concat(good, []byte{0, 0, 3, 232}, []byte("0123456789")))
	f.Add(slices.Concat(frame([]byte{0x0a, 0x05, 0x01}), good))
	f.Add(slices.Concat(frame(nil), good))
	f.Add(slices.Concat(zstdRecord(f, good[4:]), good))
	// A record whose zstd frame announces 1 GiB, and a length of 4 GiB.
	f.Add(slices.Concat(good, frame(append([]byte(zstdMagic), 0xa0, 0, 0, 0, 0x40, 0x09, 0, 0, 'x'))))
	f.Add(slices.Concat(good, []byte{0xff, 0xff, 0xff, 0xff}, good))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, data, FormatProto) })
}

// TestProtoImplausibleTimes: the protobuf reader reports a time after 2200
// as the JSON reader does, at the record and the span's pointer.
func TestProtoImplausibleTimes(t *testing.T) {
	var req tracepb.TracesData
	if err := proto.Unmarshal(protoRecord(t, agentSpan(tA, 1, 0, "boss", 0, 100), toolSpan(tA, 2, 1, "late", 10, 20), toolSpan(tA, 3, 1, "ok", 10, 20))[4:], &req); err != nil {
		t.Fatal(err)
	}
	late := req.ResourceSpans[0].ScopeSpans[0].Spans[1]
	late.StartTimeUnixNano, late.EndTimeUnixNano = 1<<64-1, 1<<64-1
	rec := marshalRecord(t, &req)
	traces, _, diags := importAll(t, "f", rec, Options{Format: FormatProto})
	mustValidate(t, traces)
	want := []string{
		"f:record 1 (byte 0): error: /resourceSpans/0/scopeSpans/0/spans/1/startTimeUnixNano: startTimeUnixNano 18446744073709551615 is not a plausible time in Unix nanoseconds: it is after 2200-01-01 (7258118400000000000); the span is left out",
		"f:record 1 (byte 0): error: /resourceSpans/0/scopeSpans/0/spans/1/endTimeUnixNano: endTimeUnixNano 18446744073709551615 is not a plausible time in Unix nanoseconds: it is after 2200-01-01 (7258118400000000000); the span is left out",
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if !slices.Equal(got, want) || len(traces) != 1 || traces[tA].Stats.WallClockS > 1 {
		t.Errorf("%d traces, diagnostics:\n%s\nwant:\n%s", len(traces), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEveryForm: every form an exporter writes is read, told by its
// content, into the same trace as OTLP/JSON: a bare request (what every
// OTLP/HTTP exporter posts, and what Python's
// encode_spans(spans).SerializeToString() returns), the collector's
// framed records, OTLP/JSON as one line or pretty-printed, each also
// compressed whole with gzip or zstd.
func TestEveryForm(t *testing.T) {
	spans := []sp{agentSpan(tA, 1, 0, "boss", 0, 100), agentSpan(tA, 2, 1, "worker", 10, 90), toolSpan(tA, 3, 2, "search", 20, 30)}
	js := []byte(line(spans...))
	want, _, diags := importAll(t, "f", js, Options{})
	if len(want) != 1 || len(diags) != 0 {
		t.Fatalf("JSON: %d traces, %v", len(want), diags)
	}
	framed := protoRecord(t, spans...)
	bare := framed[4:]
	if bare[0] != 0x0a {
		t.Fatalf("a request starts with %#x, not the tag of resourceSpans", bare[0])
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, bytes.TrimSpace(js), "", "  "); err != nil {
		t.Fatal(err)
	}
	gz := func(b []byte) []byte {
		var out bytes.Buffer
		w := gzip.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	forms := map[string][]byte{
		"bare request": bare, "framed records": framed, "JSON line": js, "pretty JSON": pretty.Bytes(), "JSON after blank lines": append([]byte("\n\n"), js...),
	}
	for name, b := range maps.Clone(forms) {
		forms[name+", gzip"] = gz(b)
		forms[name+", zstd"] = zstdAll(t, b)
	}
	for name, in := range forms {
		got, _, diags := importAll(t, "f", in, Options{})
		if len(diags) != 0 || len(got) != 1 || got[tA] == nil || !bytes.Equal(got[tA].JSON, want[tA].JSON) {
			t.Errorf("%s: %d traces, diagnostics %v; want the JSON form's trace", name, len(got), diags)
		}
	}
	// Told apart from a framed record: a bare request is refused when
	// read as one, and read when forced.
	if got, _, _ := importAll(t, "f", bare, Options{Format: FormatProtoBody}); len(got) != 1 {
		t.Error("--format body: no trace")
	}
}

// TestUnreadableSaysWhatWasTried: an input that is no form masrl reads is
// an error that lists the forms, how each is told, and shows the input's
// first bytes.
func TestUnreadableSaysWhatWasTried(t *testing.T) {
	_, _, diags := importAll(t, "f", []byte("hello\n"), Options{})
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v", diags)
	}
	msg := diags[0].Message
	for _, want := range []string{"OTLP/JSON", "bare protobuf ExportTraceServiceRequest", "4-byte big-endian length", "gzip or zstd",
		`The input starts with 68 65 6c 6c 6f 0a "hello.", so it was read as the collector's framed protobuf records`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
}
