// group-chat.mjs writes, with the OpenTelemetry JS SDK's own tracer, the
// spans an AutoGen-style group chat (or a CrewAI crew) emits under the GenAI
// conventions: create_agent when each agent is built, invoke_agent per turn
// with OpenInference's graph.node.parent_id naming the previous speaker,
// chat spans with usage (cached and reasoning tokens), execute_tool with
// gen_ai.tool.call.id, a remote agent called over a CLIENT invoke_agent
// span whose callee records its own INTERNAL invoke_agent, one model call
// that fails (error status, error.type and an exception event), and
// gen_ai.conversation.id on every span, and an agent called as a tool
// (gen_ai.transfer.mode return_to_caller) that writes no agent span.
// Neither Python framework runs in Node, so this is the shape they write,
// produced by the real SDK.
import { trace, SpanKind, SpanStatusCode, context } from '@opentelemetry/api';
import { setup } from './otel.mjs';

const otel = setup('group-chat', 'unknown_service:node', '9c4a7', 3);
const tracer = trace.getTracer('group-chat-fixture');
const conv = 'conv-groupchat-1';
const sleep = () => new Promise((r) => setTimeout(r, 2));

async function span(name, kind, attrs, fn) {
  return tracer.startActiveSpan(name, { kind, attributes: { 'gen_ai.conversation.id': conv, ...attrs } }, async (s) => {
    try { return await fn?.(s); } finally { await sleep(); s.end(); }
  });
}
async function chat(model, input, output, extra = {}) {
  await span(`chat ${model}`, SpanKind.CLIENT, { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': model, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, ...extra,
    'gen_ai.input.messages': 'SECRET-PROMPT', 'gen_ai.output.messages': 'SECRET-COMPLETION' }, sleep);
}

await span('invoke_workflow group_chat', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'group_chat' }, async () => {
  for (const [name, id] of [['writer', 'agent-w'], ['critic', 'agent-c'], ['fact_checker', 'agent-f']]) {
    await span(`create_agent ${name}`, SpanKind.INTERNAL, { 'gen_ai.operation.name': 'create_agent', 'gen_ai.agent.name': name, 'gen_ai.agent.id': id });
  }
  await span('invoke_agent writer', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'writer', 'gen_ai.agent.id': 'agent-w' }, async () => {
    await chat('gpt-writer', 200, 80, { 'gen_ai.usage.cache_read.input_tokens': 150, 'gen_ai.usage.reasoning.output_tokens': 30 });
    await span('execute_tool lookup', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_lookup_1',
      'gen_ai.tool.call.arguments': 'SECRET-ARG' }, sleep);
    await chat('gpt-writer', 260, 60);
  });
  await span('invoke_agent critic', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'critic', 'gen_ai.agent.id': 'agent-c', 'graph.node.parent_id': 'writer' }, async () => {
    await span('chat gpt-critic', SpanKind.CLIENT, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-critic', 'gen_ai.provider.name': 'openai' }, async (s) => {
      const err = new Error('SECRET-COMPLETION rate limited');
      err.name = 'RateLimitError';
      s.recordException(err);
      s.setAttribute('error.type', 'rate_limit_exceeded');
      s.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
    });
    await chat('gpt-critic', 240, 50);
    // The critic asks a remote fact checker (A2A): the caller's CLIENT span
    // and the callee's INTERNAL span describe one agent invocation.
    await span('invoke_agent fact_checker', SpanKind.CLIENT, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'fact_checker', 'gen_ai.agent.id': 'agent-f', 'server.address': 'facts.example' }, async () => {
      await span('invoke_agent fact_checker', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'fact_checker', 'gen_ai.agent.id': 'agent-f' }, async () => {
        await chat('gpt-facts', 120, 20);
      });
    });
  });
  await span('invoke_agent writer', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'writer', 'gen_ai.agent.id': 'agent-w', 'graph.node.parent_id': 'critic' }, async () => {
    await chat('gpt-writer', 300, 90);
    // The writer calls a summarizer agent as a tool (AutoGen's AgentTool,
    // CrewAI's delegation): a return_to_caller transfer whose callee
    // writes no agent span of its own, only its model call. The
    // instrumentation stamps the current (calling) agent on the span.
    await span('execute_tool summarize', SpanKind.INTERNAL, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'summarize',
      'gen_ai.tool.call.id': 'call_summarize_1', 'gen_ai.transfer.mode': 'return_to_caller', 'gen_ai.transfer.target.name': 'summarizer',
      'gen_ai.agent.name': 'writer', 'gen_ai.agent.id': 'agent-w', 'gen_ai.tool.call.arguments': 'SECRET-ARG' }, async () => {
      await chat('gpt-summary', 110, 30);
    });
  });
});
await otel.finish();
