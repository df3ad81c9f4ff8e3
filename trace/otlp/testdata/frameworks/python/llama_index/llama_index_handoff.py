"""llama-index: a LlamaIndex AgentWorkflow of two FunctionAgents, recorded
by OpenInference's LlamaIndex instrumentation, with a scripted model (a
MockFunctionCallingLLM whose chat answers scripted tool calls and texts
with their usage on the response, as a provider's raw response has it).

triage calls lookup_account, then hands off to billing (the workflow's
handoff tool, to_agent "billing"); billing calls refund, then answers.
Model calls and usage (input+output): triage 2 (40+10, 55+12), billing 2
(60+15, 70+20): 282 tokens.

No span names an agent (trace/otlp/README.md says what they hold): the
handoff's target comes from the handoff tool's JSON arguments, and
triage's steps are the root's, named by the service (llama-desk).

LlamaIndex has a lock and a venv of its own (requirements.lock, .venv),
like CrewAI's: in ../requirements.lock it would move the versions the
other frameworks resolve."""

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scripted import offline  # noqa: E402

offline()

from otelfix import Fixture  # noqa: E402

fx = Fixture("llama-index", "llama-desk", "11")

from openinference.instrumentation.llama_index import LlamaIndexInstrumentor  # noqa: E402

LlamaIndexInstrumentor().instrument(tracer_provider=fx.provider)

from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent  # noqa: E402
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, ToolCallBlock  # noqa: E402
from llama_index.core.llms.callbacks import llm_chat_callback  # noqa: E402
from llama_index.core.llms.mock import MockFunctionCallingLLM  # noqa: E402


class ScriptedLLM(MockFunctionCallingLLM):
    """Answers each chat with the next scripted turn: a tool call (name,
    arguments, call id) or a text, with its usage in the raw response,
    where OpenInference reads a provider's usage."""

    @llm_chat_callback()
    def chat(self, messages, **kwargs):
        kind, payload, (inp, out) = self.script.pop(0)
        if kind == "tool":
            name, args, call_id = payload
            msg = ChatMessage(role="assistant",
                              blocks=[ToolCallBlock(tool_call_id=call_id, tool_name=name, tool_kwargs=args)])
        else:
            msg = ChatMessage(role="assistant", content=payload)
        usage = {"prompt_tokens": inp, "completion_tokens": out, "total_tokens": inp + out}
        return ChatResponse(message=msg, raw={"usage": usage})


def scripted(turns):
    llm = ScriptedLLM()
    object.__setattr__(llm, "script", list(turns))
    return llm


def lookup_account(customer: str) -> str:
    """Look up a customer's account."""
    return "SECRET-account of " + customer


def refund(invoice: str) -> str:
    """Refund an invoice."""
    return "SECRET-refunded " + invoice


triage = FunctionAgent(name="triage", description="routes requests", system_prompt="triage", streaming=False,
                       tools=[lookup_account], can_handoff_to=["billing"], llm=scripted([
                           ("tool", ("lookup_account", {"customer": "SECRET-ada"}, "call-lookup-1"), (40, 10)),
                           ("tool", ("handoff", {"to_agent": "billing", "reason": "SECRET-refund please"},
                                     "call-handoff-1"), (55, 12)),
                       ]))
billing = FunctionAgent(name="billing", description="refunds invoices", system_prompt="billing", streaming=False,
                        tools=[refund], llm=scripted([
                            ("tool", ("refund", {"invoice": "SECRET-inv-7"}, "call-refund-1"), (60, 15)),
                            ("text", "SECRET-refund done", (70, 20)),
                        ]))


async def main():
    await AgentWorkflow(agents=[triage, billing], root_agent="triage").run(user_msg="SECRET-I was charged twice")


asyncio.run(main())
fx.finish()
