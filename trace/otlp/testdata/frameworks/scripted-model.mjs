// scripted-model.mjs: LangChain's FakeListChatModel answering with whole
// AIMessages (tool calls and usage_metadata included) instead of plain
// strings, so that the OpenInference spans carry what a chat model's would.
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { ChatGenerationChunk } from '@langchain/core/outputs';

// ScriptedModel is FakeListChatModel answering with whole AIMessages (tool
// calls and usage_metadata included) instead of plain strings.
export class ScriptedModel extends FakeListChatModel {
  constructor(replies) { super({ responses: replies.map(() => '') }); this.replies = replies; }
  async _generate() {
    const m = this.replies.shift();
    if (!m) throw new Error('no scripted reply left');
    return { generations: [{ text: String(m.content), message: m }] };
  }
  // The model is bound to its tools by createReactAgent; the script
  // already holds the tool calls.
  bindTools() { return this; }
  async *_streamResponseChunks() { const r = await this._generate(); yield new ChatGenerationChunk(r.generations[0]); }
}
