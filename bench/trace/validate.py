#!/usr/bin/env python3
"""Standard-library structural validator for orchestration traces.

The peer of `masrl trace validate` in bench/trace/RESULTS.md, written the
way the survey's artifact validator works: json.load the whole file, then
hand-coded checks for required fields, types, event and edge types,
topology, non-negative costs, unique event ids and edge references. It is
not a JSON Schema implementation.

    python3 validate.py TRACE...

Exit code 0 when every trace is valid, 1 otherwise, 2 on I/O or JSON errors.
"""
import json
import sys

EVENT_TYPES = {"orchestrator_decision", "spawn", "despawn", "message", "tool_call",
               "tool_result", "return", "aggregate", "human_intervention", "safety_event"}
EDGE_TYPES = {"temporal", "causal", "spawn", "message", "tool_dependency", "return",
              "aggregate", "safety_flow"}
TOPOLOGIES = {"centralized", "planner_executor_critic", "debate", "swarm", "hierarchical",
              "harness", "mixed", "unknown"}
TOP_KEYS = {"trace_id", "task_id", "system", "topology", "events", "edges", "rewards",
            "costs", "metrics"}


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_str(v, nonempty=False):
    return isinstance(v, str) and (not nonempty or v != "")


def check(doc):
    errs = []
    if not isinstance(doc, dict):
        return ["(root): not an object"]
    for k in ("trace_id", "task_id", "events", "edges", "rewards", "costs"):
        if k not in doc:
            errs.append(f"(root): missing {k}")
    for k in doc:
        if k not in TOP_KEYS:
            errs.append(f"(root): additional property {k}")
    for k in ("trace_id", "task_id"):
        if k in doc and not is_str(doc[k], True):
            errs.append(f"/{k}: want non-empty string")
    if "system" in doc and not is_str(doc["system"]):
        errs.append("/system: want string")
    if "topology" in doc and doc["topology"] not in TOPOLOGIES:
        errs.append("/topology: unknown topology")
    for k in ("rewards", "metrics"):
        if k in doc:
            if not isinstance(doc[k], dict):
                errs.append(f"/{k}: want object")
            else:
                errs += [f"/{k}/{n}: want number" for n, v in doc[k].items() if not is_num(v)]
    costs = doc.get("costs")
    if costs is not None:
        if not isinstance(costs, dict):
            errs.append("/costs: want object")
        else:
            for k in ("tokens", "wall_clock_s"):
                if k not in costs:
                    errs.append(f"/costs: missing {k}")
            for k, v in costs.items():
                if not is_num(v):
                    errs.append(f"/costs/{k}: want number")
                elif k in ("tokens", "wall_clock_s", "tool_calls", "messages") and v < 0:
                    errs.append(f"/costs/{k}: negative")
    ids = set()
    events = doc.get("events")
    if events is not None:
        if not isinstance(events, list) or not events:
            errs.append("/events: want non-empty array")
        else:
            for i, ev in enumerate(events):
                p = f"/events/{i}"
                if not isinstance(ev, dict):
                    errs.append(f"{p}: want object")
                    continue
                for k in ("id", "t", "type", "agent"):
                    if k not in ev:
                        errs.append(f"{p}: missing {k}")
                if "id" in ev:
                    if not is_str(ev["id"], True):
                        errs.append(f"{p}/id: want non-empty string")
                    elif ev["id"] in ids:
                        errs.append(f"{p}/id: duplicate id {ev['id']}")
                    else:
                        ids.add(ev["id"])
                if "t" in ev and not (is_num(ev["t"]) and ev["t"] >= 0):
                    errs.append(f"{p}/t: want number >= 0")
                if "type" in ev and ev["type"] not in EVENT_TYPES:
                    errs.append(f"{p}/type: unknown event type")
                if "agent" in ev and not is_str(ev["agent"], True):
                    errs.append(f"{p}/agent: want non-empty string")
                for k in ("role", "from", "to", "tool", "content_ref"):
                    if k in ev and not is_str(ev[k]):
                        errs.append(f"{p}/{k}: want string")
                if "trusted" in ev and not isinstance(ev["trusted"], bool):
                    errs.append(f"{p}/trusted: want boolean")
    edges = doc.get("edges")
    if edges is not None:
        if not isinstance(edges, list):
            errs.append("/edges: want array")
        else:
            for i, ed in enumerate(edges):
                p = f"/edges/{i}"
                if not isinstance(ed, dict):
                    errs.append(f"{p}: want object")
                    continue
                for k in ed:
                    if k not in ("src", "dst", "type"):
                        errs.append(f"{p}: additional property {k}")
                for k in ("src", "dst"):
                    if k not in ed:
                        errs.append(f"{p}: missing {k}")
                    elif not is_str(ed[k], True):
                        errs.append(f"{p}/{k}: want non-empty string")
                    elif ed[k] not in ids:
                        errs.append(f"{p}/{k}: no event {ed[k]}")
                if "type" not in ed:
                    errs.append(f"{p}: missing type")
                elif ed["type"] not in EDGE_TYPES:
                    errs.append(f"{p}/type: unknown edge type")
    return errs


def main(argv):
    if not argv:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    code = 0
    for path in argv:
        try:
            with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            code = 2
            continue
        errs = check(doc)
        for e in errs:
            print(f"{path}: {e}")
        if errs:
            code = max(code, 1)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
