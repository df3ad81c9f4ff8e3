// otel.mjs sets up the real OpenTelemetry JS SDK for one fixture run and
// writes what it recorded the way masrl reads it: OTLP/JSON lines from
// @opentelemetry/otlp-transformer's JsonTraceSerializer (what the SDK's
// OTLP/HTTP JSON exporter sends) and the collector file exporter's protobuf
// records (a 4-byte big-endian length, then an ExportTraceServiceRequest
// from ProtobufTraceSerializer). Span and trace ids come from a counter so
// that a rerun names the same traces; times are the real clock.
import { writeFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

class CountingIds {
  constructor(prefix) { this.prefix = prefix; this.traces = 0; this.spans = 0; }
  generateTraceId() { return this.prefix + (++this.traces).toString(16).padStart(32 - this.prefix.length, '0'); }
  generateSpanId() { return (++this.spans).toString(16).padStart(16, '0'); }
}

// setup registers a global tracer provider for service `service`; the
// returned finish() writes NAME.otlp.jsonl and NAME.otlp.binpb with `batch`
// spans per export request, in the order the spans ended.
export function setup(name, service, prefix, batch = 4) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    idGenerator: new CountingIds(prefix),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    provider,
    async finish() {
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const lines = [];
      const records = [];
      for (let i = 0; i < spans.length; i += batch) {
        const chunk = spans.slice(i, i + batch);
        lines.push(Buffer.from(JsonTraceSerializer.serializeRequest(chunk)).toString('utf8'));
        const msg = ProtobufTraceSerializer.serializeRequest(chunk);
        const len = Buffer.alloc(4);
        len.writeUInt32BE(msg.length);
        records.push(len, Buffer.from(msg));
      }
      writeFileSync(new URL(`./runs/${name}.otlp.jsonl`, import.meta.url), lines.join('\n') + '\n');
      writeFileSync(new URL(`./runs/${name}.otlp.binpb`, import.meta.url), Buffer.concat(records));
      await provider.shutdown();
      console.log(`${name}: ${spans.length} spans`);
    },
  };
}
