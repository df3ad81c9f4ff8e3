"""crewai: a hierarchical CrewAI crew, recorded by OpenInference's CrewAI
instrumentation, with a scripted model (a BaseLLM subclass answering
scripted ReAct turns with their usage; it emits CrewAI's LLM call events
and records the usage, as CrewAI's own providers do).

The manager (the crew's manager_agent) delegates to the researcher with
CrewAI's "Delegate work to coworker" tool; the researcher calls
web_search, then answers; the manager delegates to the writer, who
answers; the manager answers. Model calls and usage (input+output):
manager 3 (200+35, 260+40, 300+25), researcher 2 (120+20, 160+30), writer 1
(140+40): 1370 tokens. The crew's own span is the root.

The instrumentor runs with use_event_listener=True: its spans then come
from CrewAI's event bus, the delegated agents, their tools and the LLM
calls among them. Its default mode (wrapping Crew.kickoff and
Task._execute_core) records two spans of this run, the crew and the
manager's task: no delegation, tool or model call.

CrewAI needs a tree of packages of its own (chromadb, lancedb, …) and
opentelemetry-sdk 1.45.2, so it has a lock (requirements.lock) and a venv
of its own."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scripted import offline  # noqa: E402

offline()
# CrewAI's anonymous telemetry and its cloud tracing stay off (the run has
# no network anyway: make otel-fixtures runs it in a namespace without one).
os.environ.update({"CREWAI_DISABLE_TELEMETRY": "true", "CREWAI_TRACING_ENABLED": "false",
                   "CREWAI_DISABLE_TRACKING": "true"})

from otelfix import Fixture  # noqa: E402

fx = Fixture("crewai", "crew-desk", "c7")

from openinference.instrumentation.crewai import CrewAIInstrumentor  # noqa: E402

CrewAIInstrumentor().instrument(tracer_provider=fx.provider, use_event_listener=True)

from crewai import Agent, Crew, Process, Task  # noqa: E402
from crewai.events.event_bus import crewai_event_bus  # noqa: E402
from crewai.events.types.llm_events import LLMCallType  # noqa: E402
from crewai.llms.base_llm import BaseLLM, llm_call_context  # noqa: E402
from crewai.tools import tool  # noqa: E402


class ScriptedLLM(BaseLLM):
    """Answers each call with the next scripted (text, (input, output))
    turn. No function calling: CrewAI then prompts for ReAct text
    (Thought / Action / Action Input, or Final Answer)."""

    turns: list = []

    def call(self, messages, tools=None, callbacks=None, available_functions=None,
             from_task=None, from_agent=None, response_model=None):
        with llm_call_context():
            self._emit_call_started_event(messages=messages, tools=tools, callbacks=callbacks,
                                          available_functions=available_functions,
                                          from_task=from_task, from_agent=from_agent)
            text, (inp, out) = self.turns.pop(0)
            usage = {"prompt_tokens": inp, "completion_tokens": out, "total_tokens": inp + out}
            self._track_token_usage_internal(usage)
            self._emit_call_completed_event(response=text, call_type=LLMCallType.LLM_CALL,
                                            from_task=from_task, from_agent=from_agent,
                                            messages=messages, usage=usage)
            return text

    def supports_function_calling(self):
        return False

    def supports_stop_words(self):
        return False

    def get_context_window_size(self):
        return 8192


def act(thought, name, args):
    return f"Thought: {thought}\nAction: {name}\nAction Input: {json.dumps(args)}"


def final(text):
    return f"Thought: I now know the final answer\nFinal Answer: {text}"


@tool("web_search")
def web_search(query: str) -> str:
    """Search the web."""
    return "SECRET-results for " + query


researcher = Agent(role="researcher", goal="find facts", backstory="a researcher", tools=[web_search],
                   allow_delegation=False, verbose=False, llm=ScriptedLLM(model="researcher-model", turns=[
                       (act("search", "web_search", {"query": "SECRET-agent frameworks"}), (120, 20)),
                       (final("SECRET-three facts"), (160, 30)),
                   ]))
writer = Agent(role="writer", goal="write notes", backstory="a writer", allow_delegation=False, verbose=False,
               llm=ScriptedLLM(model="writer-model", turns=[(final("SECRET-the note"), (140, 40))]))
manager = Agent(role="manager", goal="deliver the note", backstory="a manager", allow_delegation=True, verbose=False,
                llm=ScriptedLLM(model="manager-model", turns=[
                    (act("research first", "Delegate work to coworker",
                         {"task": "SECRET-find facts", "context": "SECRET-ctx", "coworker": "researcher"}), (200, 35)),
                    (act("now write", "Delegate work to coworker",
                         {"task": "SECRET-write", "context": "SECRET-facts", "coworker": "writer"}), (260, 40)),
                    (final("SECRET-done"), (300, 25)),
                ]))

task = Task(description="SECRET-write a note on agent frameworks", expected_output="a note", name="note")
crew = Crew(agents=[researcher, writer], tasks=[task], manager_agent=manager, process=Process.hierarchical,
            verbose=False)
crew.kickoff()
# The instrumentation's spans end in CrewAI's event handlers, which run on
# the event bus's threads: wait for them before writing.
crewai_event_bus.flush()
fx.finish()
