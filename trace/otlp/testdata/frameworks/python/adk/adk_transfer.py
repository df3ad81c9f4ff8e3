"""google-adk: Google ADK's own OpenTelemetry spans, with a scripted model
(a BaseLlm subclass answering scripted function calls and texts with their
usage). The coordinator agent transfers to its sub-agent billing
(ADK's transfer_to_agent tool, agent_name "billing"); billing calls refund,
then answers. Model calls and usage (input+output): coordinator 1 (50+9),
billing 2 (70+16, 95+22): 262 tokens.

ADK pins opentelemetry-sdk to 1.44 at most, below the other frameworks'
1.45, so it has a lock (requirements.lock) and a venv of its own."""

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scripted import offline  # noqa: E402

offline()
os.environ["GOOGLE_API_KEY"] = "offline-fixture"
os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = "false"
# ADK records a tool call's arguments (transfer_to_agent's agent_name, the
# handoff's target) only when it captures content on spans.
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "SPAN_ONLY"

from otelfix import Fixture  # noqa: E402

fx = Fixture("google-adk", "adk-desk", "ad")

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.genai import types  # noqa: E402

TURNS = {
    "coordinator-model": [
        ("call", ("transfer_to_agent", {"agent_name": "billing"}, "call-transfer-1"), (50, 9)),
    ],
    "billing-model": [
        ("call", ("refund", {"invoice": "SECRET-inv-7"}, "call-refund-1"), (70, 16)),
        ("text", "SECRET-refund done", (95, 22)),
    ],
}


class ScriptedLlm(BaseLlm):
    """Answers each call with the next scripted turn of its model name."""

    async def generate_content_async(self, llm_request, stream=False):
        kind, payload, (inp, out) = TURNS[self.model].pop(0)
        if kind == "call":
            name, args, call_id = payload
            part = types.Part(function_call=types.FunctionCall(name=name, args=args, id=call_id))
        else:
            part = types.Part(text=payload)
        yield LlmResponse(
            content=types.Content(role="model", parts=[part]),
            usage_metadata=types.GenerateContentResponseUsageMetadata(
                prompt_token_count=inp, candidates_token_count=out, total_token_count=inp + out),
        )


def refund(invoice: str) -> str:
    """Refund an invoice."""
    return "SECRET-refunded " + invoice


billing = LlmAgent(name="billing", model=ScriptedLlm(model="billing-model"), instruction="Refund.", tools=[refund])
coordinator = LlmAgent(name="coordinator", model=ScriptedLlm(model="coordinator-model"),
                       instruction="Route the request.", sub_agents=[billing])


async def main():
    runner = InMemoryRunner(agent=coordinator, app_name="adk-desk")
    session = await runner.session_service.create_session(app_name="adk-desk", user_id="u1")
    msg = types.Content(role="user", parts=[types.Part(text="SECRET-I was charged twice")])
    async for _ in runner.run_async(user_id="u1", session_id=session.id, new_message=msg):
        pass


asyncio.run(main())
fx.finish()
