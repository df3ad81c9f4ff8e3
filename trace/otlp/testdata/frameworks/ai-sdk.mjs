// ai-sdk.mjs: the Vercel AI SDK (`ai`) runs a two-agent scenario offline
// with its own MockLanguageModelV4 and the @ai-sdk/otel integration:
// `node ai-sdk.mjs otel` with OpenTelemetry (GenAI spans), `node ai-sdk.mjs
// legacy` with LegacyOpenTelemetry (the ai.* spans of AI SDK 4-6).
// The orchestrator (generateText) calls a tool, `research`, that runs the
// researcher agent (an agent called as a tool, streamText); the researcher
// calls `web_search` twice.
import { generateText, streamText, tool, registerTelemetry, stepCountIs } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { OpenTelemetry, LegacyOpenTelemetry } from '@ai-sdk/otel';
import { z } from 'zod';
import { setup } from './otel.mjs';

const mode = process.argv[2];
const legacy = mode === 'legacy';
const otel = setup(legacy ? 'ai-sdk-legacy' : 'ai-sdk-otel', 'travel-planner', legacy ? 'a15d' : 'a15e');
registerTelemetry(legacy ? new LegacyOpenTelemetry() : new OpenTelemetry());

const usage = (input, output, cacheRead = 0, reasoning = 0) => ({
  inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
  outputTokens: { total: output, text: output - reasoning, reasoning },
});
const call = (id, name, input) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) });
const step = (content, u) => ({
  content, usage: u, warnings: [],
  finishReason: { unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined },
});

// Each agent has its own scripted model: replies are consumed in order.
const orchestratorModel = new MockLanguageModelV4({
  provider: 'mock-provider', modelId: 'planner-large',
  doGenerate: [
    step([call('call_research_1', 'research', { topic: 'SECRET-PROMPT trains to Lyon' })], usage(120, 30, 100, 12)),
    step([{ type: 'text', text: 'SECRET-COMPLETION the plan' }], usage(260, 45, 200, 0)),
  ],
});
// stream is one streamed model reply: the parts a provider streams.
const stream = (parts, u) => ({
  stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, ...parts,
    { type: 'finish', usage: u, finishReason: { unified: parts.some((p) => p.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined } }]),
});
const researcherModel = new MockLanguageModelV4({
  provider: 'mock-provider', modelId: 'researcher-small',
  doStream: [
    stream([call('call_search_1', 'web_search', { q: 'SECRET-ARG timetable' }),
      call('call_search_2', 'web_search', { q: 'SECRET-ARG fares' })], usage(80, 20)),
    stream([{ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'SECRET-COMPLETION findings' },
      { type: 'text-end', id: 't1' }], usage(150, 40, 0, 10)),
  ],
});

const webSearch = tool({
  description: 'search the web',
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => `SECRET-RESULT results for ${q}`,
});
const research = tool({
  description: 'ask the researcher agent',
  inputSchema: z.object({ topic: z.string() }),
  execute: async ({ topic }) => {
    const r = streamText({
      model: researcherModel, prompt: topic, tools: { web_search: webSearch },
      stopWhen: stepCountIs(4), telemetry: { functionId: 'researcher' },
    });
    return await r.text;
  },
});

await generateText({
  model: orchestratorModel, prompt: 'SECRET-PROMPT plan a trip', tools: { research },
  stopWhen: stepCountIs(4), telemetry: { functionId: 'orchestrator' },
});
await otel.finish();
