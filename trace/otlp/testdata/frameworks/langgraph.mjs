// langgraph.mjs: a LangGraph (@langchain/langgraph) StateGraph of three
// agents runs offline, traced through OpenInference's
// @arizeai/openinference-instrumentation-langchain. supervisor passes to
// researcher, which calls the `search` tool its model asks for, then to
// writer. Each node's model is LangChain's FakeListChatModel
// scripted with the replies (tool calls and usage) a chat model would give.
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { StateGraph, MessagesAnnotation, START, END } from '@langchain/langgraph';
import { z } from 'zod';
import { setup } from './otel.mjs';
import { ScriptedModel } from './scripted-model.mjs';

const otel = setup('langgraph', 'newsroom', '16a9');
new LangChainInstrumentation({ tracerProvider: otel.provider }).manuallyInstrument(CallbackManagerModule);

const usage = (input_tokens, output_tokens, cache_read = 0, reasoning = 0) => ({
  input_tokens, output_tokens, total_tokens: input_tokens + output_tokens,
  input_token_details: { cache_read }, output_token_details: { reasoning },
});

const search = tool(async ({ q }) => `SECRET-RESULT about ${q}`, {
  name: 'search', description: 'search the archive', schema: z.object({ q: z.string() }),
});
const supervisorModel = new ScriptedModel([
  new AIMessage({ content: 'SECRET-COMPLETION research first', usage_metadata: usage(50, 8) }),
]);
const researcherModel = new ScriptedModel([
  new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id: 'call_search_1', name: 'search', args: { q: 'SECRET-ARG elections' } }],
    usage_metadata: usage(90, 12, 40) }),
  new AIMessage({ content: 'SECRET-COMPLETION notes', usage_metadata: usage(140, 30) }),
]);
const writerModel = new ScriptedModel([
  new AIMessage({ content: 'SECRET-COMPLETION article', usage_metadata: usage(160, 70, 0, 20) }),
]);

async function supervisor(state) {
  return { messages: [await supervisorModel.invoke(state.messages)] };
}
async function researcher(state) {
  const first = await researcherModel.invoke(state.messages);
  const results = [];
  for (const tc of first.tool_calls ?? []) results.push(await search.invoke(tc));
  return { messages: [first, ...results, await researcherModel.invoke([...state.messages, first, ...results])] };
}
async function writer(state) {
  return { messages: [await writerModel.invoke(state.messages)] };
}

const graph = new StateGraph(MessagesAnnotation)
  .addNode('supervisor', supervisor)
  .addNode('researcher', researcher)
  .addNode('writer', writer)
  .addEdge(START, 'supervisor')
  .addEdge('supervisor', 'researcher')
  .addEdge('researcher', 'writer')
  .addEdge('writer', END)
  .compile({ name: 'newsroom' });

await graph.invoke({ messages: [{ role: 'user', content: 'SECRET-PROMPT write about the elections' }] },
  { configurable: { thread_id: 'thread-newsroom-1' } });
await otel.finish();
