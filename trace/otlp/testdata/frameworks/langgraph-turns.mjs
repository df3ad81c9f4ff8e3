// langgraph-turns.mjs: two turns of one conversation with LangGraph's
// prebuilt ReAct agent (createReactAgent, a MemorySaver checkpointer), each
// turn its own OTel trace, both under one thread_id, which OpenInference's
// LangChain instrumentation writes as session.id. Turn one asks for
// `search` and answers; turn two answers from the thread's history.
// `masrl trace import --group-by conversation` joins the two traces.
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { setup } from './otel.mjs';
import { ScriptedModel } from './scripted-model.mjs';

const otel = setup('langgraph-turns', 'turns-desk', '27bc');
new LangChainInstrumentation({ tracerProvider: otel.provider }).manuallyInstrument(CallbackManagerModule);

const search = tool(async ({ q }) => `SECRET-RESULT about ${q}`, {
  name: 'search', description: 'search the docs', schema: z.object({ q: z.string() }),
});
const llm = new ScriptedModel([
  new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id: 'call_search_1', name: 'search', args: { q: 'SECRET-ARG refunds' } }],
    usage_metadata: { input_tokens: 70, output_tokens: 14, total_tokens: 84 } }),
  new AIMessage({ content: 'SECRET-COMPLETION answer', usage_metadata: { input_tokens: 120, output_tokens: 35, total_tokens: 155 } }),
  new AIMessage({ content: 'SECRET-COMPLETION follow-up', usage_metadata: { input_tokens: 190, output_tokens: 25, total_tokens: 215 } }),
]);
const agent = createReactAgent({ llm, tools: [search], name: 'react_agent', checkpointSaver: new MemorySaver() });
const config = { configurable: { thread_id: 'thread-turns-1' } };
await agent.invoke({ messages: [{ role: 'user', content: 'SECRET-PROMPT how do refunds work?' }] }, config);
await agent.invoke({ messages: [{ role: 'user', content: 'SECRET-PROMPT and for gift cards?' }] }, config);
await otel.finish();
