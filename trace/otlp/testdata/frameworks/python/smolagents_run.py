"""smolagents: smolagents through OpenInference
(openinference-instrumentation-smolagents), with a user-defined model class
(a smolagents Model subclass answering scripted tool calls with their
usage). The manager agent calls its managed agent researcher (a tool call
to "researcher", which smolagents runs as the managed agent); researcher
calls web_search, then final_answer; the manager calls final_answer.
Model calls and usage (input+output): manager 2 (100+20, 150+33),
researcher 2 (60+12, 90+18): 483 tokens. OpenInference wraps the generate
of smolagents' own model classes only, so a user-defined model's calls have
no LLM span: the trace shows no model call, and each agent span carries its
own steps' usage (the manager's without the researcher's)."""

import json

from scripted import offline

offline()

from otelfix import Fixture  # noqa: E402

fx = Fixture("smolagents", "smol-desk", "5a")

from openinference.instrumentation.smolagents import SmolagentsInstrumentor  # noqa: E402
from smolagents import Model, ToolCallingAgent, tool  # noqa: E402
from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole  # noqa: E402
from smolagents.monitoring import LogLevel, TokenUsage  # noqa: E402

SmolagentsInstrumentor().instrument(tracer_provider=fx.provider)

class ScriptedModel(Model):
    """A user-defined model: each call answers the next scripted tool call
    (name, arguments, id) with its usage."""

    def __init__(self, model_id, turns):
        super().__init__(model_id=model_id)
        self.turns = list(turns)

    def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
        (name, args, call_id), (inp, out) = self.turns.pop(0)
        call = ChatMessageToolCall(function=ChatMessageToolCallFunction(name=name, arguments=json.dumps(args)),
                                   id=call_id, type="function")
        return ChatMessage(role=MessageRole.ASSISTANT, content=None, tool_calls=[call],
                           token_usage=TokenUsage(input_tokens=inp, output_tokens=out))


@tool
def web_search(query: str) -> str:
    """Search the web.

    Args:
        query: what to search for
    """
    return "SECRET-results for " + query


researcher = ToolCallingAgent(
    tools=[web_search], name="researcher", description="Researches a topic on the web.",
    model=ScriptedModel("researcher-model", [
        (("web_search", {"query": "SECRET-otel"}, "call-search-1"), (60, 12)),
        (("final_answer", {"answer": "SECRET-findings"}, "call-final-r"), (90, 18)),
    ]), verbosity_level=LogLevel.OFF)
manager = ToolCallingAgent(
    tools=[], managed_agents=[researcher], name="manager",
    model=ScriptedModel("manager-model", [
        (("researcher", {"task": "SECRET-research otel"}, "call-researcher-1"), (100, 20)),
        (("final_answer", {"answer": "SECRET-report"}, "call-final-m"), (150, 33)),
    ]), verbosity_level=LogLevel.OFF)

manager.run("SECRET-write a report")
fx.finish()
