"""autogen-swarm (and autogen-native, autogen-openinference): an AutoGen
AgentChat Swarm of triage and billing. Its model is AutoGen's
OpenAIChatCompletionClient over an httpx MockTransport that answers each
request with the next scripted chat completion (nothing leaves the
process). triage hands off to billing (transfer_to_billing); billing calls
refund (AutoGen returns the tool's result as the turn's summary, no second
model call); the team then gives billing another turn (a second invocation,
no handoff), in which it answers TERMINATE. Model calls and usage
(input+output): triage 1 (45+10), billing 2 (65+14, 80+6): 220 tokens.
AutoGen's own spans record no model call (its OpenAI client has no span of
its own; OpenInference's wraps it), so autogen-native has none and no
tokens.

argv[1] picks the instrumentation: "both" (AutoGen's own GenAI and
runtime spans and OpenInference's at once, run autogen-swarm), "native"
(AutoGen's only, autogen-native) or "openinference" (OpenInference's only,
autogen-openinference)."""

import asyncio
import json
import os
import sys

from scripted import offline

offline()
mode = sys.argv[1] if len(sys.argv) > 1 else "both"

from otelfix import Fixture  # noqa: E402

name = {"both": "autogen-swarm", "native": "autogen-native", "openinference": "autogen-openinference"}[mode]
# OpenInference alone: AutoGen's own spans go to the global provider, which
# is then left unset (a no-op).
fx = Fixture(name, "autogen-desk", {"both": "a5", "native": "a6", "openinference": "a7"}[mode],
             set_global=mode != "openinference")

import httpx  # noqa: E402
from autogen_agentchat.agents import AssistantAgent  # noqa: E402
from autogen_agentchat.conditions import TextMentionTermination  # noqa: E402
from autogen_agentchat.teams import Swarm  # noqa: E402
from autogen_ext.models.openai import OpenAIChatCompletionClient  # noqa: E402

if mode != "native":
    from openinference.instrumentation.autogen_agentchat import AutogenAgentChatInstrumentor

    AutogenAgentChatInstrumentor().instrument(tracer_provider=fx.provider)


def scripted_client(model, turns):
    """An OpenAIChatCompletionClient whose HTTP transport answers each
    request with the next scripted completion: a tool call (name,
    arguments, id) or a text, with its usage."""
    turns = list(turns)

    def answer(request):
        kind, payload, (inp, out) = turns.pop(0)
        msg = {"role": "assistant", "content": None}
        finish = "tool_calls"
        if kind == "tool":
            tool, args, call_id = payload
            msg["tool_calls"] = [{"id": call_id, "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}]
        else:
            msg["content"], finish = payload, "stop"
        return httpx.Response(200, json={
            "id": "chatcmpl-" + model, "object": "chat.completion", "created": 1_700_000_000, "model": model,
            "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
            "usage": {"prompt_tokens": inp, "completion_tokens": out, "total_tokens": inp + out},
        })

    return OpenAIChatCompletionClient(
        model=model, api_key="sk-offline-fixture", base_url="http://127.0.0.1:9/v1",
        model_info={"vision": False, "function_calling": True, "json_output": False, "family": "unknown",
                    "structured_output": False},
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
    )


async def refund(invoice: str) -> str:
    """Refund an invoice."""
    return "SECRET-refunded " + invoice


async def main():
    # As AutoGen's tracing guide does: the run inside one span of the
    # application, so that the agents' create_agent spans are in its trace.
    with fx.provider.get_tracer("autogen-desk").start_as_current_span("support run"):
        await run()


async def run():
    triage = AssistantAgent(
        "triage", handoffs=["billing"],
        model_client=scripted_client("triage-model", [
            ("tool", ("transfer_to_billing", {}, "call-handoff-1"), (45, 10)),
        ]))
    billing = AssistantAgent(
        "billing", tools=[refund],
        model_client=scripted_client("billing-model", [
            ("tool", ("refund", {"invoice": "SECRET-inv-7"}, "call-refund-1"), (65, 14)),
            ("text", "SECRET-refund done TERMINATE", (80, 6)),
        ]))
    team = Swarm([triage, billing], termination_condition=TextMentionTermination("TERMINATE"))
    await team.run(task="SECRET-I was charged twice")


asyncio.run(main())
fx.finish()
