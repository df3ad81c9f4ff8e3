"""strands-swarm: a Strands Agents Swarm (native GenAI spans) of triage and
billing with a scripted model. triage calls lookup_account, then hands off
to billing (the swarm's handoff_to_agent tool, agent_name "billing");
triage's model then answers (its loop runs on after the handoff tool);
billing calls refund, then answers. Model calls and usage (input+output):
triage 3 (40+10, 55+12, 30+5), billing 2 (60+15, 70+20): 317 tokens."""

import asyncio
import json

from scripted import offline

offline()

from otelfix import Fixture  # noqa: E402

fx = Fixture("strands-swarm", "strands-desk", "5d")

from strands import Agent, tool  # noqa: E402
from strands.models.model import Model  # noqa: E402
from strands.multiagent import Swarm  # noqa: E402


class ScriptedModel(Model):
    """A strands Model answering each call with the next scripted turn: a
    tool use (name, input) or a text, with its usage."""

    def __init__(self, model_id, turns):
        self.model_id, self.turns = model_id, list(turns)

    def update_config(self, **kw):
        pass

    def get_config(self):
        return {"model_id": self.model_id}

    async def structured_output(self, output_model, prompt, system_prompt=None, **kw):
        raise NotImplementedError
        yield

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kw):
        kind, payload, (inp, out) = self.turns.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if kind == "tool":
            name, args, call_id = payload
            yield {"contentBlockStart": {"start": {"toolUse": {"toolUseId": call_id, "name": name}}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(args)}}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": payload}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
        yield {"metadata": {"usage": {"inputTokens": inp, "outputTokens": out, "totalTokens": inp + out},
                            "metrics": {"latencyMs": 1}}}


@tool
def lookup_account(customer: str) -> str:
    """Look up a customer's account."""
    return "SECRET-account of " + customer


@tool
def refund(invoice: str) -> str:
    """Refund an invoice."""
    return "SECRET-refunded " + invoice


triage = Agent(
    name="triage",
    model=ScriptedModel("triage-model", [
        ("tool", ("lookup_account", {"customer": "SECRET-ada"}, "call-lookup-1"), (40, 10)),
        ("tool", ("handoff_to_agent", {"agent_name": "billing", "message": "SECRET-refund please"}, "call-handoff-1"), (55, 12)),
        ("text", "SECRET-billing will take it", (30, 5)),
    ]),
    tools=[lookup_account],
    callback_handler=None,
)
billing = Agent(
    name="billing",
    model=ScriptedModel("billing-model", [
        ("tool", ("refund", {"invoice": "SECRET-inv-7"}, "call-refund-1"), (60, 15)),
        ("text", "SECRET-refund done", (70, 20)),
    ]),
    tools=[refund],
    callback_handler=None,
)


async def main():
    swarm = Swarm([triage, billing], entry_point=triage, max_handoffs=3)
    await swarm.invoke_async("SECRET-I was charged twice")


asyncio.run(main())
fx.finish()
