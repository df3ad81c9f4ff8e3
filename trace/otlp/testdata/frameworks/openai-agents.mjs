// openai-agents.mjs: the OpenAI Agents SDK (@openai/agents) runs a support
// desk offline with a scripted fake Model (the SDK's Model interface), traced
// through OpenInference's @arizeai/openinference-instrumentation-openai-agents.
// triage hands off to billing (a handoff); billing calls the `accounts`
// agent as a tool (agent.asTool), which calls the `get_invoice` function tool.
import * as agents from '@openai/agents';
import { Agent, Runner, Usage, tool, setTracingDisabled, withGenerationSpan } from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import { z } from 'zod';
import { setup } from './otel.mjs';

const otel = setup('openai-agents', 'support-desk', '0a9e');
setTracingDisabled(false);
new OpenAIAgentsInstrumentation({ tracerProvider: otel.provider }).manuallyInstrument(agents);

// FakeModel answers each request with the next scripted output, inside a
// generation span as the SDK's own chat-completions model records one.
class FakeModel {
  constructor(name, replies) { this.name = name; this.replies = replies; }
  async getResponse() {
    return withGenerationSpan(async (span) => {
      const r = this.replies.shift();
      if (!r) throw new Error(`${this.name}: no scripted reply left`);
      span.spanData.model = `${this.name}-model`;
      span.spanData.usage = { input_tokens: r.in, output_tokens: r.out,
        details: { cached_tokens: r.cached ?? 0, reasoning_tokens: r.reasoning ?? 0 } };
      return this.reply(r);
    });
  }
  reply(r) {
    return { output: r.output, usage: new Usage({ requests: 1, inputTokens: r.in, outputTokens: r.out, totalTokens: r.in + r.out,
      inputTokensDetails: { cached_tokens: r.cached ?? 0 }, outputTokensDetails: { reasoning_tokens: r.reasoning ?? 0 } }),
      responseId: `resp_${this.name}_${this.replies.length}` };
  }
  async *getStreamedResponse() { throw new Error('not scripted'); }
}
const call = (callId, name, args) => ({ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' });
const say = (text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

const getInvoice = tool({
  name: 'get_invoice', description: 'fetch an invoice', parameters: z.object({ id: z.string() }),
  execute: async ({ id }) => `SECRET-RESULT invoice ${id}`,
});
const accounts = new Agent({
  name: 'accounts', instructions: 'SECRET-PROMPT look up accounts', tools: [getInvoice],
  model: new FakeModel('accounts', [
    { output: [call('call_inv_1', 'get_invoice', { id: 'SECRET-ARG 42' })], in: 60, out: 15 },
    { output: [say('SECRET-COMPLETION invoice found')], in: 90, out: 25 },
  ]),
});
const billing = new Agent({
  name: 'billing', instructions: 'SECRET-PROMPT handle billing',
  tools: [accounts.asTool({ toolName: 'lookup_account', toolDescription: 'ask the accounts agent' })],
  model: new FakeModel('billing', [
    { output: [call('call_acct_1', 'lookup_account', { input: 'SECRET-ARG customer 42' })], in: 110, out: 20, cached: 64 },
    { output: [say('SECRET-COMPLETION refund issued')], in: 180, out: 40, reasoning: 16 },
  ]),
});
const triage = new Agent({
  name: 'triage', instructions: 'SECRET-PROMPT route the customer', handoffs: [billing],
  model: new FakeModel('triage', [
    { output: [call('call_handoff_1', 'transfer_to_billing', {})], in: 70, out: 10 },
  ]),
});

await new Runner({ workflowName: 'support desk', groupId: 'conv-support-1' }).run(triage, 'SECRET-PROMPT I was charged twice');
await otel.finish();
