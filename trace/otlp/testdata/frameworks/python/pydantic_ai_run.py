"""pydantic-ai: pydantic-ai's own instrumentation (InstrumentationSettings,
GenAI spans). The orchestrator agent calls its research tool, which runs the
researcher agent (agent delegation); the researcher calls web_search once
and answers; the orchestrator answers. FunctionModel scripts every answer
with its usage. Model calls and usage (input+output): orchestrator 2
(50+10, 90+30), researcher 2 (40+8, 70+25): 323 tokens."""

from scripted import offline

offline()

from otelfix import Fixture  # noqa: E402

fx = Fixture("pydantic-ai", "pydantic-desk", "7a")

from pydantic_ai import Agent, RunContext  # noqa: E402
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.models.instrumented import InstrumentationSettings  # noqa: E402
from pydantic_ai.usage import RequestUsage  # noqa: E402


def scripted(turns):
    turns = list(turns)

    def answer(messages, info: AgentInfo):
        part, (inp, out) = turns.pop(0)
        return ModelResponse(parts=[part], usage=RequestUsage(input_tokens=inp, output_tokens=out))

    return answer


Agent.instrument_all(InstrumentationSettings(include_content=False))
researcher = Agent(
    FunctionModel(scripted([
        (ToolCallPart("web_search", {"query": "SECRET-otel"}, tool_call_id="call-search-1"), (40, 8)),
        (TextPart("SECRET-findings"), (70, 25)),
    ]), model_name="researcher-model"),
    name="researcher",
)
orchestrator = Agent(
    FunctionModel(scripted([
        (ToolCallPart("research", {"topic": "SECRET-otel"}, tool_call_id="call-research-1"), (50, 10)),
        (TextPart("SECRET-report"), (90, 30)),
    ]), model_name="orchestrator-model"),
    name="orchestrator",
)


@researcher.tool_plain
def web_search(query: str) -> str:
    return "SECRET-results for " + query


@orchestrator.tool
async def research(ctx: RunContext[None], topic: str) -> str:
    r = await researcher.run("SECRET-research " + topic, usage=ctx.usage)
    return r.output


orchestrator.run_sync("SECRET-write a report")
fx.finish()
