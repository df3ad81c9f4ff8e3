"""otelfix sets up the OpenTelemetry Python SDK for one fixture run and
writes what it recorded the way masrl reads it, like ../otel.mjs does for
the JavaScript runs: OTLP/JSON lines (the protobuf request from
opentelemetry-exporter-otlp-proto-common's encode_spans, in the OTLP/JSON
mapping: hex ids, integer enums) and the collector file exporter's protobuf
records (a 4-byte big-endian length, then the ExportTraceServiceRequest).
Span and trace ids come from a counter so that a rerun names the same
traces; times are the real clock."""

import base64
import json
import os
import struct

from google.protobuf.json_format import MessageToDict
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.path.join(HERE, "..", "runs")


class CountingIds(IdGenerator):
    """Trace ids PREFIX0…01, span ids 1, 2, … in the order they are made."""

    def __init__(self, prefix):
        self.prefix, self.traces, self.spans = prefix, 0, 0

    def generate_trace_id(self):
        self.traces += 1
        return int(self.prefix + format(self.traces, "x").rjust(32 - len(self.prefix), "0"), 16)

    def generate_span_id(self):
        self.spans += 1
        return self.spans


class Fixture:
    """setup(name, service, prefix) registers the global tracer provider;
    finish() writes runs/NAME.otlp.jsonl and .otlp.binpb, `batch` spans
    per export request, in the order the spans ended. Without set_global only
the instrumentations given the provider record."""

    def __init__(self, name, service, prefix, batch=4, set_global=True):
        self.name, self.batch = name, batch
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider(
            resource=Resource.create({"service.name": service}),
            id_generator=CountingIds(prefix),
        )
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        if set_global:
            trace.set_tracer_provider(self.provider)

    def finish(self):
        self.provider.force_flush()
        spans = self.exporter.get_finished_spans()
        lines, records = [], []
        for i in range(0, len(spans), self.batch):
            msg = encode_spans(spans[i : i + self.batch])
            lines.append(json.dumps(_otlp_json(MessageToDict(msg, use_integers_for_enums=True)), separators=(",", ":")))
            raw = msg.SerializeToString()
            records.append(struct.pack(">I", len(raw)) + raw)
        with open(os.path.join(RUNS, self.name + ".otlp.jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(RUNS, self.name + ".otlp.binpb"), "wb") as f:
            f.write(b"".join(records))
        print(f"{self.name}: {len(spans)} spans")


def _otlp_json(v, key=""):
    """The protobuf JSON mapping writes bytes in base64; OTLP/JSON writes
    trace and span ids in hex."""
    if isinstance(v, dict):
        return {k: _otlp_json(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [_otlp_json(x, key) for x in v]
    if key in ("traceId", "spanId", "parentSpanId") and isinstance(v, str):
        return base64.b64decode(v).hex()
    return v
