// langgraph-react.mjs: LangGraph's prebuilt ReAct agent (createReactAgent:
// an `agent` node calling the model and a `tools` ToolNode), traced through
// OpenInference's LangChain instrumentation, offline with the scripted
// FakeListChatModel: the model asks for `search` once, then answers.
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { setup } from './otel.mjs';
import { ScriptedModel } from './scripted-model.mjs';

const otel = setup('langgraph-react', 'react-desk', '16ab');
new LangChainInstrumentation({ tracerProvider: otel.provider }).manuallyInstrument(CallbackManagerModule);

const search = tool(async ({ q }) => `SECRET-RESULT about ${q}`, {
  name: 'search', description: 'search the docs', schema: z.object({ q: z.string() }),
});
const llm = new ScriptedModel([
  new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id: 'call_search_1', name: 'search', args: { q: 'SECRET-ARG refunds' } }],
    usage_metadata: { input_tokens: 70, output_tokens: 14, total_tokens: 84 } }),
  new AIMessage({ content: 'SECRET-COMPLETION answer', usage_metadata: { input_tokens: 120, output_tokens: 35, total_tokens: 155 } }),
]);
const agent = createReactAgent({ llm, tools: [search], name: 'react_agent' });
await agent.invoke({ messages: [{ role: 'user', content: 'SECRET-PROMPT how do refunds work?' }] },
  { configurable: { thread_id: 'thread-react-1' } });
await otel.finish();
