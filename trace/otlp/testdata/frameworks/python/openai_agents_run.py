"""openai-agents: the OpenAI Agents SDK through OpenInference
(openinference-instrumentation-openai-agents), with a scripted Model that
records its generation spans through the SDK's generation_span. The
"support desk" workflow runs triage, which hands off to billing; billing
calls accounts as a tool (as_tool); accounts calls get_invoice and answers;
billing answers. Model calls and usage (input+output): triage 1 (60+20),
billing 2 (90+25, 150+40), accounts 2 (70+15, 100+30): 600 tokens."""

import asyncio

from scripted import offline

offline()

from otelfix import Fixture  # noqa: E402

fx = Fixture("py-openai-agents", "support-desk", "0a9f")

from agents import Agent, Runner, function_tool, trace  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.tracing import generation_span, set_trace_processors  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor  # noqa: E402

set_trace_processors([])  # never the SDK's exporter to OpenAI's backend
OpenAIAgentsInstrumentor().instrument(tracer_provider=fx.provider)


class ScriptedModel(Model):
    """Answers each call with the next scripted turn: a function call
    (name, arguments, call id) or a text, with its usage."""

    def __init__(self, name, turns):
        self.name, self.turns = name, list(turns)

    async def get_response(self, *args, **kwargs):
        kind, payload, (inp, out) = self.turns.pop(0)
        if kind == "tool":
            name, arguments, call_id = payload
            item = ResponseFunctionToolCall(type="function_call", name=name, arguments=arguments,
                                            call_id=call_id, id="fc-" + call_id, status="completed")
        else:
            item = ResponseOutputMessage(type="message", id="msg-" + self.name, role="assistant", status="completed",
                                         content=[ResponseOutputText(type="output_text", text=payload, annotations=[])])
        usage = Usage(requests=1, input_tokens=inp, output_tokens=out, total_tokens=inp + out)
        with generation_span(model=self.name, usage={"input_tokens": inp, "output_tokens": out}):
            pass
        return ModelResponse(output=[item], usage=usage, response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


@function_tool
def get_invoice(invoice: str) -> str:
    """Fetch an invoice."""
    return "SECRET-invoice " + invoice


accounts = Agent(name="accounts", model=ScriptedModel("accounts-model", [
    ("tool", ("get_invoice", '{"invoice": "SECRET-42"}', "call-invoice-1"), (70, 15)),
    ("text", "SECRET-invoice 42 is paid", (100, 30)),
]), tools=[get_invoice])
billing = Agent(name="billing", model=ScriptedModel("billing-model", [
    ("tool", ("ask_accounts", '{"input": "SECRET-invoice 42?"}', "call-accounts-1"), (90, 25)),
    ("text", "SECRET-refund issued", (150, 40)),
]), tools=[accounts.as_tool(tool_name="ask_accounts", tool_description="Ask the accounts team.")])
triage = Agent(name="triage", model=ScriptedModel("triage-model", [
    ("tool", ("transfer_to_billing", "{}", "call-handoff-1"), (60, 20)),
]), handoffs=[billing])


async def main():
    with trace("support desk"):
        await Runner.run(triage, "SECRET-I was charged twice")


asyncio.run(main())
fx.finish()
