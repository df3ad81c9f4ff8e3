// viewer.js: the orchestration-trace viewer of masrl. Vanilla JavaScript,
// no dependencies, nothing fetched.
//
// It draws a trace as a timeline: one lane per agent (the orchestrator
// first, every spawned agent under its parent, tools last), each event at
// its time t, a bar of activity from an agent's spawn to its return, and
// the edges typed as the survey draws them. Beside it: the event under the
// pointer or the keyboard with its fields and JSON Pointer, the findings
// of the validator placed on their events, the Table 14 checklist filled
// from the validator's report (the viewer computes no measure itself), the
// agents with their tool calls, tokens and time, the rewards by name, and
// a paged table of the same events for screen readers.
//
// Two ways in, one module:
//   - a page with a JSON data island #masrl-viewer-data (an inert script
//     element of type application/json, what `masrl trace view` writes) is shown at once;
//   - on the traces page, validator.js builds the file picker and drop
//     zone of #masrl-viewer and loads this script only when a file is
//     chosen, then calls MasrlViewer.openFile: the file is read in the
//     page and checked by the WebAssembly validator, nothing uploaded.
//
// A trace of more than WORKER_TEXT characters is parsed by this same
// script running as a Web Worker, so the page keeps answering input. A
// written file's lite traces (lite.go) are read first, for the first
// frame; the worker then parses the whole traces, which follow the
// script in a second island.
//
// The timeline is one canvas the size of the box; the lanes scroll
// beneath it (a trace may have thousands of agents) and only the lanes in
// view are drawn. A lane with more events in view than the plot has
// pixels is drawn as a density strip, so a million events never draw a
// million marks. Everything from the trace reaches the page through
// textContent or the canvas, never as markup.
(function () {
  "use strict";

  const LANE_H = 22; // pixels per lane
  const LABEL_W = 170; // pixels of lane labels left of the plot
  const AXIS_H = 22;
  const EDGE_LIMIT = 10000; // edges are drawn while at most this many are in view
  const PAGE_ROWS = 50; // rows per page of the event table
  const FINDINGS_LISTED = 1000; // findings listed, each with a button to its event
  // A trace of more characters of JSON than this is parsed in a Web Worker,
  // so that the page keeps answering input; a smaller one in the page,
  // which is faster (a worker's fresh heap collects garbage more often: a
  // 100,000-event file opened in 0.76 to 0.99 s in the page and 1.0 to
  // 2.3 s with a worker, BENCHMARKS.md).
  const WORKER_TEXT = 50e6;
  // The same bound for a written file's lite traces (lite.go), whose
  // columns take about 22 characters an event: about 450,000 events, at
  // which their parse and columns would hold the page some tenths of a
  // second.
  const WORKER_LITE = 10e6;
  // In a Web Worker this script is the viewer's worker (worker below); in
  // a page, SCRIPT is its own element, whose source starts that worker.
  const IN_WORKER = typeof document === "undefined";
  const SCRIPT = IN_WORKER ? null : document.currentScript;

  // The survey's edge types, in the schema's order, with how they are drawn.
  const EDGES = {
    temporal: { dash: [2, 3], width: 1, varName: "--mv-edge-faint" },
    causal: { dash: [], width: 1, varName: "--mv-edge-faint" },
    spawn: { dash: [], width: 1.5, varName: "--mv-edge-spawn" },
    message: { dash: [], width: 1.2, varName: "--mv-edge-message" },
    tool_dependency: { dash: [4, 2], width: 1.2, varName: "--mv-edge-tool" },
    return: { dash: [6, 3], width: 1.5, varName: "--mv-edge-return" },
    aggregate: { dash: [1, 2], width: 1.8, varName: "--mv-edge-aggregate" },
    safety_flow: { dash: [], width: 2, varName: "--mv-edge-safety" },
  };
  const EDGE_TYPES = Object.keys(EDGES);
  const EVENT_TYPES = [
    "orchestrator_decision", "spawn", "despawn", "message", "tool_call",
    "tool_result", "return", "aggregate", "human_intervention", "safety_event",
  ];
  const EVENT_VAR = {
    orchestrator_decision: "--mv-ev-decision", spawn: "--mv-edge-spawn", despawn: "--mv-edge-spawn",
    message: "--mv-edge-message", tool_call: "--mv-edge-tool", tool_result: "--mv-edge-tool",
    return: "--mv-edge-return", aggregate: "--mv-edge-aggregate", human_intervention: "--mv-ev-human",
    safety_event: "--mv-edge-safety",
  };
  // The event types by their index in EVENT_TYPES; those columns tells
  // apart.
  const TYPE_INDEX = new Map(EVENT_TYPES.map((k, i) => [k, i]));
  const ORCHESTRATOR_DECISION = EVENT_TYPES.indexOf("orchestrator_decision");
  const SPAWN = EVENT_TYPES.indexOf("spawn");
  const TOOL_CALL = EVENT_TYPES.indexOf("tool_call");
  const RETURN = EVENT_TYPES.indexOf("return");

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      e.setAttribute(k, v);
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function plural(n, noun) {
    return `${grouped(n)} ${noun}${n === 1 ? "" : "s"}`;
  }

  function fmt(x) {
    if (typeof x !== "number") {
      return String(x);
    }
    return Number.isInteger(x) ? grouped(x) : String(Math.round(x * 1000) / 1000);
  }

  // grouped is n.toLocaleString("en-US") ("100,000"), without Intl for
  // the integers below 1e21 that String writes in full: the first call of
  // Intl's number format loads its locale data, which cost the first
  // frame 20 ms and more (seconds, once, under load).
  function grouped(n) {
    if (typeof n !== "number" || !Number.isInteger(n) || Math.abs(n) >= 1e21) {
      return n.toLocaleString("en-US");
    }
    const d = String(Math.abs(n));
    let out = d.slice(0, ((d.length - 1) % 3) + 1);
    for (let k = out.length; k < d.length; k += 3) out += "," + d.slice(k, k + 3);
    return (n < 0 || Object.is(n, -0) ? "-" : "") + out;
  }

  function str(v) {
    return typeof v === "string" ? v : "";
  }

  // findingEvent returns the event index a finding's JSON Pointer concerns:
  // the event itself, or the source event of an edge (src and dst: the
  // edges' event indices, null when not resolved).
  function findingEvent(f, n, src, dst) {
    let r = /^\/events\/(\d+)(\/|$)/.exec(f.pointer || "");
    if (r) {
      const i = Number(r[1]);
      return i < n ? i : -1;
    }
    r = /^\/edges\/(\d+)(\/|$)/.exec(f.pointer || "");
    if (r && src) {
      const k = Number(r[1]);
      if (k < src.length) {
        return src[k] >= 0 ? src[k] : dst[k];
      }
    }
    return -1;
  }

  // clip cuts the segment from (xa, ya) to (xb, yb) to the box [x0, y0,
  // x1, y1] (Liang-Barsky): null when it misses the box, else the ends in
  // it and whether the segment was whole.
  function clip(xa, ya, xb, yb, box) {
    const [x0, y0, x1, y1] = box;
    const dx = xb - xa;
    const dy = yb - ya;
    let u0 = 0;
    let u1 = 1;
    for (const [p, q] of [[-dx, xa - x0], [dx, x1 - xa], [-dy, ya - y0], [dy, y1 - ya]]) {
      if (p === 0) {
        if (q < 0) return null;
      } else {
        const r = q / p;
        if (p < 0) {
          if (r > u1) return null;
          if (r > u0) u0 = r;
        } else {
          if (r < u0) return null;
          if (r < u1) u1 = r;
        }
      }
    }
    return [xa + u0 * dx, ya + u0 * dy, xa + u1 * dx, ya + u1 * dy, u0 === 0 && u1 === 1];
  }

  // columns turns a parsed trace into what the timeline draws from: per
  // event its time, agent, type and whether it carries a reward (typed
  // arrays, which cross from the worker to the page without a copy); per
  // agent its lane, parent and counts; per lane its events in time order.
  // It reads the trace into its lite form (liteOf), which is what a
  // written file embeds for the first frame (lite.go), and builds the
  // columns from that (liteColumns): one reading of a trace, whichever
  // way it came.
  function columns(tr) {
    return liteColumns(liteOf(tr));
  }

  // liteOf reads a parsed trace as lite.go writes its lite form: events
  // as columns, names and types as tables, the members columns reads on
  // some events as lists of (event, value).
  function liteOf(tr) {
    const evs = tr && Array.isArray(tr.events) ? tr.events : [];
    const n = evs.length;
    const table = () => {
      const list = [];
      const index = new Map();
      return {
        list, of(s) {
          let j = index.get(s);
          if (j === undefined) {
            j = list.length;
            list.push(s);
            index.set(s, j);
          }
          return j;
        },
      };
    };
    const names = table();
    const types = table();
    const t = new Float64Array(n);
    const agent = new Int32Array(n);
    const type = new Int32Array(n);
    const role = [];
    const tokens = [];
    const reward = [];
    const to = [];
    const from = [];
    const tool = [];
    for (let i = 0; i < n; i++) {
      const ev = evs[i] && typeof evs[i] === "object" ? evs[i] : {};
      type[i] = typeof ev.type === "string" ? types.of(ev.type) : -1;
      t[i] = typeof ev.t === "number" ? ev.t : 0;
      agent[i] = names.of(typeof ev.agent === "string" ? ev.agent : "(no agent)");
      if (typeof ev.role === "string") role.push(i, ev.role);
      if (typeof ev.tokens === "number") tokens.push(i, ev.tokens);
      if (ev.reward !== undefined || ev.rewards !== undefined) reward.push(i);
      switch (ev.type) {
        case "spawn":
          if (typeof ev.to === "string") to.push(i, names.of(ev.to));
          break;
        case "return":
          from.push(i, typeof ev.from === "string" ? names.of(ev.from) : -1);
          break;
        case "tool_result":
          if (ev.tool === ev.agent) tool.push(i);
          break;
      }
    }
    const eds = tr && Array.isArray(tr.edges) ? tr.edges : [];
    const edgeTypes = table();
    const edgeCounts = [];
    for (let k = 0; k < eds.length; k++) {
      const e = eds[k];
      if (e && typeof e.type === "string") {
        const j = edgeTypes.of(e.type);
        edgeCounts[j] = (edgeCounts[j] || 0) + 1;
      }
    }
    return { n, names: names.list, types: types.list, t, agent, type, role, tokens, reward, to, from, tool, toolCmp: [],
      edgeTypes: edgeTypes.list, edgeCounts, edges: eds.length };
  }

  // liteColumns builds the columns from a lite trace (liteOf, lite.go):
  // loops over typed arrays and lists rather than over an object per
  // event, so that the first frame of a written file waits for little.
  function liteColumns(L) {
    const n = L.n;
    let t = L.t;
    if (L.tScale !== undefined) {
      // Integers k, each after the one before, and t = k / 10^tScale
      // (lite.go, scaledTimes): the time JSON.parse would have read.
      t = new Float64Array(n);
      const p = Number("1e" + L.tScale);
      let k = 0;
      for (let i = 0; i < n; i++) {
        k += L.t[i];
        t[i] = k / p;
      }
    } else if (!(t instanceof Float64Array)) {
      t = new Float64Array(t);
    }
    for (let i = 0; i < n; i++) if (!Number.isFinite(t[i])) t[i] = 0;
    // The agents in order of first use of their names (two spellings of
    // a name in the JSON are one agent).
    const agents = [];
    const byName = new Map();
    const idOf = new Int32Array(L.names.length);
    L.names.forEach((name, j) => {
      let id = byName.get(name);
      if (id === undefined) {
        id = agents.length;
        agents.push(name);
        byName.set(name, id);
      }
      idOf[j] = id;
    });
    const na = agents.length;
    const count = new Int32Array(na);
    const first = new Int32Array(na).fill(-1);
    const last = new Float64Array(na).fill(-Infinity);
    const toolCalls = new Int32Array(na);
    const rewards = new Int32Array(na);
    const tokens = new Float64Array(na);
    const hasTokens = new Uint8Array(na);
    const isTool = new Uint8Array(na);
    const parent = new Int32Array(na).fill(-1);
    const spawnT = new Float64Array(na).fill(NaN);
    const endT = new Float64Array(na).fill(NaN);
    const role = new Array(na).fill("");
    const children = Array.from({ length: na }, () => []);
    const typeOf = Int32Array.from(L.types, (s) => {
      const k = TYPE_INDEX.get(s);
      return k === undefined ? -1 : k;
    });
    const agentOf = new Int32Array(n);
    const type = new Int8Array(n);
    const reward = new Uint8Array(n);
    const ag = L.agent;
    const ty = L.type;
    let orchestrator = -1;
    let firstSpawner = -1;
    for (let i = 0; i < n; i++) {
      const a = idOf[ag[i]];
      const k = ty[i] < 0 ? -1 : typeOf[ty[i]];
      agentOf[i] = a;
      type[i] = k;
      count[a]++;
      if (first[a] < 0) first[a] = i;
      if (t[i] > last[a]) last[a] = t[i];
      if (k === ORCHESTRATOR_DECISION) {
        if (orchestrator < 0) orchestrator = a;
      } else if (k === SPAWN) {
        if (firstSpawner < 0) firstSpawner = a;
      } else if (k === TOOL_CALL) {
        toolCalls[a]++;
      }
    }
    // The first non-empty string role of each agent.
    for (let j = 0; j < L.role.length; j += 2) {
      const a = agentOf[L.role[j]];
      if (!role[a] && typeof L.role[j + 1] === "string") role[a] = L.role[j + 1];
    }
    for (let j = 0; j < L.tokens.length; j += 2) {
      const a = agentOf[L.tokens[j]];
      if (typeof L.tokens[j + 1] === "number") {
        tokens[a] += L.tokens[j + 1];
        hasTokens[a] = 1;
      }
    }
    for (const i of L.reward) {
      rewards[agentOf[i]]++;
      reward[i] = 1;
    }
    // A spawn makes its agent the parent of the spawned one, unless that
    // one has a parent or is an ancestor; a return ends the agent it is
    // from (or its own).
    const isAncestor = (c, a) => {
      for (let p = a; p >= 0; p = parent[p]) {
        if (p === c) return true;
      }
      return false;
    };
    for (let j = 0; j < L.to.length; j += 2) {
      const i = L.to[j];
      const a = agentOf[i];
      const c = idOf[L.to[j + 1]];
      if (c !== a && parent[c] < 0 && !isAncestor(c, a)) {
        parent[c] = a;
        spawnT[c] = t[i];
        children[a].push(c);
      }
    }
    for (let j = 0; j < L.from.length; j += 2) {
      const i = L.from[j];
      const r = L.from[j + 1] < 0 ? agentOf[i] : idOf[L.from[j + 1]];
      endT[r] = Number.isNaN(endT[r]) ? t[i] : Math.max(endT[r], t[i]);
    }
    for (const i of L.tool) isTool[agentOf[i]] = 1;
    for (let j = 0; j < L.toolCmp.length; j += 3) {
      if (L.toolCmp[j + 1] === L.toolCmp[j + 2]) isTool[agentOf[L.toolCmp[j]]] = 1;
    }
    const list = agents.map((name, id) => ({ id, name, parent: parent[id], first: first[id], spawnT: spawnT[id], endT: endT[id],
      last: last[id], count: count[id], toolCalls: toolCalls[id], tokens: tokens[id], hasTokens: hasTokens[id] === 1,
      tool: isTool[id] === 1, role: role[id], rewards: rewards[id], depth: 0, lane: -1 }));
    const root = orchestrator >= 0 ? orchestrator : firstSpawner >= 0 ? firstSpawner : na ? 0 : -1;
    const lanes = laneOrder(list, children, root, agentOf, t);
    // Edges are counted by type here and tied to their events (edges)
    // after the page has its first frame.
    const edgeCount = {};
    let known = 0;
    L.edgeTypes.forEach((name, j) => {
      if (EDGES[name] && Object.hasOwn(EDGES, name)) {
        edgeCount[name] = (edgeCount[name] || 0) + L.edgeCounts[j];
        known += L.edgeCounts[j];
      }
    });
    if (L.edges > known) edgeCount.other = L.edges - known;
    return { n, t, agentOf, type, reward, agents: list, ...lanes, nEdges: L.edges, edgeCount, root, rewarded: L.reward.length };
  }

  // laneOrder lays out the lanes: the root's spawn tree depth first, then
  // the other agents' trees in order of appearance, then the tools; and
  // per lane its events in time order (input order breaks ties).
  function laneOrder(agents, children, root, agentOf, t) {
    const n = agentOf.length;
    const laneAgent = new Int32Array(agents.length);
    let nl = 0;
    const placed = new Uint8Array(agents.length);
    // The stack of agents to visit and their depths, as typed arrays (an
    // agent is pushed once per parent at most: once).
    const stackId = new Int32Array(agents.length + 1);
    const stackDepth = new Int32Array(agents.length + 1);
    const visit = (a0) => {
      let sp = 0;
      stackId[sp] = a0;
      stackDepth[sp++] = 0;
      while (sp > 0) {
        const id = stackId[--sp];
        const depth = stackDepth[sp];
        if (placed[id]) {
          continue;
        }
        placed[id] = 1;
        const a = agents[id];
        a.depth = depth;
        a.lane = nl;
        laneAgent[nl++] = id;
        const ch = children[id];
        for (let j = ch.length - 1; j >= 0; j--) {
          stackId[sp] = ch[j];
          stackDepth[sp++] = depth + 1;
        }
      }
    };
    if (root >= 0) {
      visit(root);
    }
    for (const a of agents) {
      if (!placed[a.id] && !a.tool && a.parent < 0) {
        visit(a.id);
      }
    }
    for (const a of agents) {
      if (!placed[a.id] && !a.tool) {
        visit(a.id);
      }
    }
    for (const a of agents) {
      if (!placed[a.id]) {
        visit(a.id);
      }
    }
    const laneOf = new Int32Array(agents.length);
    for (let id = 0; id < agents.length; id++) laneOf[id] = agents[id].lane;
    const laneStart = new Int32Array(nl + 1);
    for (let i = 0; i < n; i++) {
      laneStart[laneOf[agentOf[i]] + 1]++;
    }
    for (let l = 0; l < nl; l++) {
      laneStart[l + 1] += laneStart[l];
    }
    const laneEvents = new Int32Array(n);
    const fill = laneStart.slice(0, nl);
    let sorted = true;
    let tMin = Infinity;
    let tMax = -Infinity;
    for (let i = 0; i < n; i++) {
      const l = laneOf[agentOf[i]];
      const at = fill[l]++;
      if (at > laneStart[l] && t[laneEvents[at - 1]] > t[i]) {
        sorted = false;
      }
      laneEvents[at] = i;
      if (t[i] < tMin) tMin = t[i];
      if (t[i] > tMax) tMax = t[i];
    }
    if (!sorted) {
      for (let l = 0; l < nl; l++) {
        const part = laneEvents.subarray(laneStart[l], laneStart[l + 1]);
        part.sort((x, y) => t[x] - t[y] || x - y);
      }
    }
    if (n === 0) {
      tMin = 0;
      tMax = 1;
    }
    return { laneAgent, laneStart, laneEvents, tMin, tMax };
  }

  // edges ties every edge of a trace to the indices of its events (-1 for
  // an id that names none) and its type to EDGE_TYPES.
  function edges(tr) {
    const evs = tr && Array.isArray(tr.events) ? tr.events : [];
    const eds = tr && Array.isArray(tr.edges) ? tr.edges : [];
    const ids = new Map();
    for (let i = 0; i < evs.length; i++) {
      const id = evs[i] && evs[i].id;
      if (typeof id === "string" && !ids.has(id)) {
        ids.set(id, i);
      }
    }
    const src = new Int32Array(eds.length);
    const dst = new Int32Array(eds.length);
    const etype = new Int8Array(eds.length);
    for (let k = 0; k < eds.length; k++) {
      const e = eds[k] && typeof eds[k] === "object" ? eds[k] : {};
      const s = ids.get(e.src);
      const d = ids.get(e.dst);
      src[k] = s === undefined ? -1 : s;
      dst[k] = d === undefined ? -1 : d;
      etype[k] = EDGE_TYPES.indexOf(e.type);
    }
    return { src, dst, etype };
  }

  // AGENT_INT and AGENT_NUM are the members of an agent (columns) that
  // cross from the worker to the page as typed arrays: a structured clone
  // of 100,000 agent objects held the page for a second, their columns
  // take no time.
  const AGENT_INT = ["parent", "first", "count", "toolCalls", "rewards", "depth", "lane"];
  const AGENT_NUM = ["spawnT", "endT", "last", "tokens"];

  // packAgents turns the agents into columns (names and roles as arrays
  // of strings, flags and numbers as typed arrays); unpackAgents back.
  function packAgents(agents) {
    const n = agents.length;
    const p = { names: agents.map((a) => a.name), roles: agents.map((a) => a.role), flags: new Uint8Array(n) };
    for (const k of AGENT_INT) p[k] = new Int32Array(n);
    for (const k of AGENT_NUM) p[k] = new Float64Array(n);
    agents.forEach((a, i) => {
      for (const k of AGENT_INT) p[k][i] = a[k];
      for (const k of AGENT_NUM) p[k][i] = a[k];
      p.flags[i] = (a.tool ? 1 : 0) | (a.hasTokens ? 2 : 0);
    });
    return p;
  }

  function packedBuffers(p) {
    return [p.flags.buffer, ...AGENT_INT.map((k) => p[k].buffer), ...AGENT_NUM.map((k) => p[k].buffer)];
  }

  function unpackAgents(p) {
    return p.names.map((name, i) => {
      const a = { id: i, name, role: p.roles[i], tool: (p.flags[i] & 1) !== 0, hasTokens: (p.flags[i] & 2) !== 0 };
      for (const k of AGENT_INT) a[k] = p[k][i];
      for (const k of AGENT_NUM) a[k] = p[k][i];
      return a;
    });
  }

  function parseTrace(text) {
    try {
      const v = JSON.parse(text);
      return v && typeof v === "object" ? v : null;
    } catch (e) {
      return null;
    }
  }

  // worker is the side of the viewer that holds the traces: it parses
  // their JSON, builds their columns and keeps the parsed events, which the
  // page asks for a few at a time (the rows of a table page, the event
  // described). It runs in a Web Worker, so that parsing a million events
  // never holds the page's thread; post sends a message to the page. With
  // inPage it runs in the page itself (Backend), and its
  // agents need not cross as columns.
  //
  // Messages in: {op: "file", text} (the data island of a written file:
  // {checklist, traces: [{name, line, report, trace}]}), {op: "open",
  // units: [{name, line, report, text}]} (files read in the page), {op:
  // "events", key, req, idx}. Out: progress notes, the units with their
  // columns, then each unit's edges, and the events asked for.
  function worker(post, inPage) {
    const traces = [];
    // waiting lists the keys of units opened from their lite traces
    // whose whole traces have not come yet; deferred, the requests for
    // events that wait for them.
    let waiting = [];
    let deferred = [];
    const open = (req, checklist, list, lite) => {
      const out = [];
      const transfer = [];
      const late = [];
      for (const u of list) {
        const key = traces.length;
        const tr = u.trace && typeof u.trace === "object" ? u.trace : null;
        traces.push(lite ? null : tr);
        if (lite) waiting.push(key);
        const m0 = performance.now();
        const c = lite && tr ? liteColumns(tr) : columns(tr);
        // Agents cross to the page as columns; in the page they stay.
        if (!inPage) c.agents = packAgents(c.agents);
        const findings = (u.report && Array.isArray(u.report.findings)) ? u.report.findings : [];
        // A finding on an edge is placed on the edge's event: those
        // units tie their edges at once, the others after the first frame.
        let e = null;
        if (findings.some((f) => /^\/edges\//.test(f.pointer || ""))) {
          e = edges(tr);
        }
        const at = Int32Array.from(findings, (f) => findingEvent(f, c.n, e && e.src, e && e.dst));
        // The events the view shows at once: the table's first page and
        // the findings' events.
        const pre = new Set();
        for (let i = 0; i < Math.min(c.n, PAGE_ROWS); i++) pre.add(i);
        for (let j = 0; j < Math.min(at.length, FINDINGS_LISTED); j++) if (at[j] >= 0) pre.add(at[j]);
        const idx = Array.from(pre);
        const evs = lite ? [] : tr && Array.isArray(tr.events) ? tr.events : [];
        if (lite) idx.length = 0;
        out.push({ key, name: u.name, line: u.line, report: u.report || { findings: [] }, cols: c, findingAt: at,
          edges: e, preload: { idx, evs: idx.map((i) => evs[i]) }, modelMs: performance.now() - m0 });
        transfer.push(c.t.buffer, c.agentOf.buffer, c.type.buffer, c.reward.buffer, c.laneAgent.buffer, c.laneStart.buffer, c.laneEvents.buffer);
        if (!inPage) transfer.push(...packedBuffers(c.agents));
        if (e) {
          transfer.push(e.src.buffer, e.dst.buffer, e.etype.buffer);
        } else if (!lite) {
          late.push(key);
        }
      }
      post({ op: "units", req, checklist, units: out }, transfer);
      for (const key of late) {
        const e = edges(traces[key]);
        post({ op: "edges", key, edges: e }, [e.src.buffer, e.dst.buffer, e.etype.buffer]);
      }
    };
    const handle = (msg) => {
      try {
        switch (msg.op) {
          case "file": {
            post({ op: "progress", req: msg.req, text: `Parsing ${Math.round(msg.text.length / 1e5) / 10} MB of JSON` });
            const p0 = performance.now();
            const data = JSON.parse(msg.text);
            const p1 = performance.now();
            // When the parse ran, on the clock the page shares
            // (timeOrigin + now): the browser tests check the page
            // answered input meanwhile.
            post({ op: "progress", req: msg.req, text: "Reading the events", parseMs: p1 - p0,
              parseSpan: [performance.timeOrigin + p0, performance.timeOrigin + p1] });
            open(msg.req, data.checklist || [], data.traces || []);
            break;
          }
          case "lite": {
            // A written file's first island with each trace reduced to
            // the columns of what columns reads (lite.go, liteColumns);
            // the whole traces follow ("traces").
            const p0 = performance.now();
            const data = JSON.parse(msg.text);
            const p1 = performance.now();
            post({ op: "progress", req: msg.req, text: "Reading the events", parseMs: p1 - p0,
              parseSpan: [performance.timeOrigin + p0, performance.timeOrigin + p1] });
            const list = (data.traces || []).map((u) => ({ name: u.name, line: u.line, report: u.report, trace: u.lite }));
            open(msg.req, data.checklist || [], list, true);
            break;
          }
          case "traces": {
            // The whole traces of the units opened from lite ones, in
            // their order; then their edges, and the events asked for
            // meanwhile.
            const p0 = performance.now();
            const all = JSON.parse(msg.text);
            const p1 = performance.now();
            post({ op: "parsed", parseMs: p1 - p0, parseSpan: [performance.timeOrigin + p0, performance.timeOrigin + p1] });
            const keys = msg.keys || waiting;
            waiting = waiting.filter((k) => !keys.includes(k));
            keys.forEach((key, j) => {
              const tr = Array.isArray(all) ? all[j] : null;
              traces[key] = tr && typeof tr === "object" ? tr : null;
            });
            for (const key of keys) {
              const e = edges(traces[key]);
              post({ op: "edges", key, edges: e }, [e.src.buffer, e.dst.buffer, e.etype.buffer]);
            }
            const later = deferred;
            deferred = [];
            later.forEach(handle);
            break;
          }
          case "open": {
            const p0 = performance.now();
            const list = msg.units.map((u) => ({ name: u.name, line: u.line, report: u.report, trace: parseTrace(u.text) }));
            post({ op: "progress", req: msg.req, text: "Reading the events", parseMs: performance.now() - p0 });
            open(msg.req, null, list);
            break;
          }
          case "events": {
            // Events of a trace not yet here (opened from its lite
            // form, here or in the page) wait for it.
            if (waiting.includes(msg.key) || traces[msg.key] === undefined) {
              deferred.push(msg);
              break;
            }
            const tr = traces[msg.key];
            const evs = tr && Array.isArray(tr.events) ? tr.events : [];
            post({ op: "events", req: msg.req, evs: msg.idx.map((i) => evs[i]) });
            break;
          }
        }
      } catch (e) {
        post({ op: "error", req: msg.req, error: String(e && e.message ? e.message : e) });
      }
    };
    return handle;
  }

  if (IN_WORKER) {
    const handle = worker((msg, transfer) => globalThis.postMessage(msg, transfer || []));
    globalThis.onmessage = (e) => handle(e.data);
    return;
  }

  // Backend is the page's side of worker: it starts the worker (from the
  // script's own address on the site, from a Blob of its text in a written
  // file, whose policy allows worker-src blob:) and turns its messages
  // into promises. For text up to WORKER_TEXT characters, or where no
  // worker can start, the same code runs in the page, a task later.
  class Backend {
    //
    // A written file with lite traces (lite.go) of at most WORKER_LITE
    // characters is drawn from them in the page, and the worker, started
    // once the first frame is drawn (wholeTraces), takes the whole traces
    // and answers for the events and edges: the first frame waits neither
    // for the worker nor for its heap, its start (compiling this script
    // again) does not compete with the first frame for a busy machine's
    // CPU, and the whole parse holds no thread the page needs. The lite
    // traces are read, and the view built and drawn, in the script's own
    // task: each task more let the HTML parser (reading the whole traces)
    // or a first layout of the page without the view hold the thread 20
    // to 60 ms before the first frame.
    constructor(size, lite) {
      this.pending = new Map();
      this.next = 1;
      this.models = new Map();
      const receive = (msg) => this.receive(msg);
      const start = () => {
        const url = SCRIPT && SCRIPT.src ? SCRIPT.src :
          URL.createObjectURL(new Blob([SCRIPT ? SCRIPT.textContent : ""], { type: "text/javascript" }));
        const w = new Worker(url);
        w.onmessage = (e) => receive(e.data);
        w.onerror = (e) => {
          e.preventDefault();
          this.fail(`the viewer's worker failed: ${e.message || "it could not start"}`);
        };
        return w;
      };
      const inPage = size <= (lite ? WORKER_LITE : WORKER_TEXT);
      if (lite && inPage) {
        const handle = worker((msg) => receive(msg), true);
        this.send = (msg) => (msg.op === "lite" ? handle(msg) : setTimeout(() => handle(msg), 0));
        this.inWorker = false;
        // What is for the worker waits for it; where no worker can start,
        // the page reads the whole traces too.
        let w = null;
        const queue = [];
        this.sendWhole = (msg) => (w ? w.postMessage(msg) : queue.push(msg));
        this.startWhole = (first) => {
          try {
            w = start();
          } catch (e) {
            w = { postMessage: (msg) => this.send(msg), terminate() {} };
          }
          w.postMessage(first);
          queue.splice(0).forEach((msg) => w.postMessage(msg));
        };
        this.close = () => w && w.terminate();
        return;
      }
      try {
        if (inPage) throw new Error("small enough for the page");
        const w = start();
        this.send = (msg) => w.postMessage(msg);
        this.close = () => w.terminate();
        this.inWorker = true;
      } catch (e) {
        const handle = worker((msg) => setTimeout(() => receive(msg), 0), true);
        this.send = (msg) => setTimeout(() => handle(msg), 0);
        this.close = () => {};
        this.inWorker = false;
      }
    }

    fail(text) {
      for (const p of this.pending.values()) p.reject(new Error(text));
      this.pending.clear();
    }

    ask(msg, progress) {
      const req = this.next++;
      return new Promise((resolve, reject) => {
        this.pending.set(req, { resolve, reject, progress });
        (msg.op === "events" && this.sendWhole ? this.sendWhole : this.send)({ ...msg, req });
      });
    }

    receive(msg) {
      const p = this.pending.get(msg.req);
      switch (msg.op) {
        case "progress":
          if (p) {
            if (msg.parseMs !== undefined) p.parseMs = msg.parseMs;
            if (msg.parseSpan) p.parseSpan = msg.parseSpan;
            if (p.progress) p.progress(msg.text);
          }
          return;
        case "parsed":
          if (this.onParsed) this.onParsed(msg);
          return;
        case "edges": {
          const m = this.models.get(msg.key);
          if (m) m.setEdges(msg.edges);
          return;
        }
        case "error":
          this.pending.delete(msg.req);
          if (p) p.reject(new Error(msg.error));
          return;
        case "units":
          this.pending.delete(msg.req);
          if (p) {
            const units = msg.units.map((u) => {
              const m = new Model(this, u);
              this.models.set(u.key, m);
              return { name: u.name, line: u.line, report: u.report, model: m };
            });
            p.resolve({ checklist: msg.checklist, units, parseMs: p.parseMs, parseSpan: p.parseSpan });
          }
          return;
        case "events":
          this.pending.delete(msg.req);
          if (p) p.resolve(msg.evs);
      }
    }

    // file opens the data island of a written file; open the units a
    // file read in the page makes (each {name, line, report, text}).
    file(text, progress) {
      return this.ask({ op: "file", text }, progress);
    }

    open(units, progress) {
      return this.ask({ op: "open", units }, progress);
    }

    // lite opens the first island of a written file whose traces are
    // lite (lite.go); wholeTraces sends the second, the whole traces.
    lite(text, progress) {
      return this.ask({ op: "lite", text }, progress).then((o) => ({ ...o, lite: true }));
    }

    wholeTraces(text) {
      const msg = { op: "traces", text, keys: Array.from(this.models.keys()), req: 0 };
      if (this.startWhole) {
        this.startWhole(msg);
      } else {
        (this.sendWhole || this.send)(msg);
      }
    }
  }

  // Model is one trace as the page sees it: the worker's columns, the
  // lanes, the findings on their events, the edges once tied (edgesReady,
  // then src, dst and etype) and the events fetched so far (ev).
  class Model {
    constructor(be, u) {
      Object.assign(this, u.cols);
      this.agents = Array.isArray(u.cols.agents) ? u.cols.agents : unpackAgents(u.cols.agents);
      this.be = be;
      this.key = u.key;
      this.report = u.report;
      this.lanes = Array.from(this.laneAgent, (id) => this.agents[id]);
      this.root = this.root >= 0 ? this.agents[this.root] : undefined;
      this.src = this.dst = this.etype = null;
      this.edgesReady = false;
      this.edgesDone = new Promise((resolve) => {
        this.edgesResolve = resolve;
      });
      this.cache = new Map();
      u.preload.idx.forEach((i, j) => this.cache.set(i, u.preload.evs[j]));
      this.findingsAt = new Map();
      this.traceFindings = [];
      const findings = u.report.findings || [];
      findings.forEach((f, j) => {
        const i = u.findingAt[j];
        if (i < 0) {
          this.traceFindings.push(f);
        } else {
          if (!this.findingsAt.has(i)) this.findingsAt.set(i, []);
          this.findingsAt.get(i).push(f);
        }
      });
      this.findingIndex = u.findingAt;
      this.modelMs = u.modelMs;
      if (u.edges) this.setEdges(u.edges);
    }

    setEdges(e) {
      Object.assign(this, e, { edgesReady: true });
      this.edgesResolve();
    }

    // ev is event i as fetched (an empty object until then).
    ev(i) {
      const e = this.cache.get(i);
      return e && typeof e === "object" ? e : {};
    }

    has(i) {
      return this.cache.has(i);
    }

    // load fetches the events idx from the worker.
    async load(idx) {
      const want = idx.filter((i) => !this.cache.has(i));
      if (!want.length) return;
      const evs = await this.be.ask({ op: "events", key: this.key, idx: want });
      want.forEach((i, j) => this.cache.set(i, evs[j]));
    }
  }

  // resolveEdges resolves once the worker has tied the edges to their
  // events.
  function resolveEdges(m) {
    return m.edgesDone;
  }
  // timeOrder lists the events by time (input order breaks ties), made on
  // first use.
  function timeOrder(m) {
    if (!m.order) {
      const o = new Int32Array(m.n);
      for (let i = 0; i < m.n; i++) o[i] = i;
      let sorted = true;
      for (let i = 1; i < m.n && sorted; i++) sorted = m.t[i - 1] <= m.t[i];
      if (!sorted) o.sort((x, y) => m.t[x] - m.t[y] || x - y);
      m.order = o;
      m.rank = new Int32Array(m.n);
      for (let r = 0; r < m.n; r++) m.rank[o[r]] = r;
    }
    return m.order;
  }

  // lowerBound finds the first position in the lane whose time is >= x.
  function lowerBound(m, l, x) {
    let lo = m.laneStart[l];
    let hi = m.laneStart[l + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (m.t[m.laneEvents[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // lookup reads a measure named as data/traces.yaml names it
  // ("costs.tokens") from the report.
  function lookup(stats, name) {
    let v = stats;
    for (const part of name.split(".")) {
      if (v === null || v === undefined) return undefined;
      v = v[part];
    }
    return v;
  }

  function showValue(v) {
    if (v === null || v === undefined || v === "") return "n/a";
    if (Array.isArray(v)) {
      if (v.length === 0) return "none";
      return v.map((c) => `${c.name} ${fmt(c.count !== undefined ? c.count : c.value)}`).join(", ");
    }
    if (typeof v === "object") return JSON.stringify(v);
    return fmt(v);
  }

  // View is one trace shown in a root element.
  class View {
    constructor(host, unit, checklist, onBack) {
      this.host = host;
      this.unit = unit;
      this.m = unit.model;
      this.checklist = checklist;
      this.cur = -1;
      this.hover = -1;
      this.t0 = this.m.tMin;
      this.t1 = this.m.tMax > this.m.tMin ? this.m.tMax : this.m.tMin + 1;
      this.drawn = {};
      this.colors = null;
      this.build(onBack);
    }

    build(onBack) {
      const m = this.m;
      const rep = this.unit.report || {};
      const s = rep.stats || {};
      const box = el("section", { class: "mv-view", "aria-label": "Trace viewer" });
      const head = el("div", { class: "mv-head" });
      const title = el("h3", {}, s.trace_id ? `Trace ${s.trace_id}` : this.unit.name);
      if (onBack) {
        const back = el("button", { type: "button", class: "mv-back" }, "Back to the list of traces");
        back.addEventListener("click", onBack);
        head.append(back);
      }
      head.append(title);
      const where = this.unit.line ? `${this.unit.name}, line ${this.unit.line}` : this.unit.name;
      const verdict = rep.error ? `The validator failed: ${rep.error}` :
        `${rep.valid ? "Valid" : "Invalid"}: ${plural(rep.errors || 0, "error")}, ${plural(rep.warnings || 0, "warning")}.`;
      head.append(el("p", { class: "mv-summary" },
        `${where}: ${plural(m.n, "event")} in ${plural(m.lanes.length, "lane")}, ${plural(m.nEdges, "edge")}. ${verdict}`));
      this.note = el("p", { class: "mv-note", role: "note" });
      head.append(this.note);
      box.append(head);

      // Toolbar.
      const bar = el("div", { class: "mv-toolbar", role: "group", "aria-label": "Timeline zoom" });
      const zin = el("button", { type: "button" }, "Zoom in");
      const zout = el("button", { type: "button" }, "Zoom out");
      const all = el("button", { type: "button" }, "Whole trace");
      zin.addEventListener("click", () => this.zoom(0.5, this.cur >= 0 ? this.m.t[this.cur] : (this.t0 + this.t1) / 2));
      zout.addEventListener("click", () => this.zoom(2, (this.t0 + this.t1) / 2));
      all.addEventListener("click", () => this.setWindow(this.m.tMin, this.m.tMax));
      bar.append(zin, zout, all);
      box.append(bar);

      // Timeline and the panel beside it.
      const grid = el("div", { class: "mv-grid" });
      const scroll = el("div", { class: "mv-scroll" });
      const spacer = el("div", { class: "mv-spacer" });
      const canvas = el("canvas", { class: "mv-canvas", tabindex: "0", role: "application",
        "aria-roledescription": "timeline",
        "aria-label": `Timeline of ${plural(m.n, "event")} in ${plural(m.lanes.length, "agent lane")}. ` +
          "Left and right arrows: previous and next event of the lane; up and down: the nearest event in the lane above or below; " +
          "Home and End: first and last event of the trace; N and P: next and previous event in time; F: next finding; plus and minus: zoom.",
        "aria-describedby": "" });
      const rest = el("div", { class: "mv-rest" });
      spacer.append(canvas, rest);
      scroll.append(spacer);
      this.scroll = scroll;
      this.canvas = canvas;
      this.rest = rest;
      const side = el("div", { class: "mv-side" });
      this.details = el("section", { class: "mv-details", "aria-live": "polite", "aria-label": "Selected event" });
      this.details.append(el("p", {}, "Point at an event or focus the timeline and use the arrow keys."));
      const detailsId = "mv-details-" + Math.random().toString(36).slice(2);
      this.details.id = detailsId;
      canvas.setAttribute("aria-describedby", detailsId);
      side.append(this.details, this.checklistTable(s), this.legend());
      grid.append(scroll, side);
      box.append(grid);
      this.tooltip = el("div", { class: "mv-tooltip", "aria-hidden": "true" });
      this.tooltip.hidden = true;
      box.append(this.tooltip);

      box.append(this.findingsSection(), this.agentsSection(), this.rewardsSection(), this.tableSection());
      this.box = box;
      this.host.replaceChildren(box);
      this.wire();
      this.resize();
    }

    checklistTable(s) {
      const sec = el("section", { class: "mv-checklist", "aria-label": "Reporting checklist" });
      const table = el("table");
      table.append(el("caption", {}, "Reporting checklist (survey Table 14), from the validator's report"));
      const tb = el("tbody");
      for (const it of this.checklist) {
        const tr = el("tr");
        tr.append(el("th", { scope: "row" }, it.item));
        const td = el("td");
        if (it.measures && it.measures.length) {
          const ul = el("ul");
          for (const name of it.measures) {
            const li = el("li");
            li.append(el("code", {}, name), ": " + showValue(lookup(s, name)));
            ul.append(li);
          }
          td.append(ul);
        }
        if (it.note) td.append(el("p", {}, it.note));
        tr.append(td);
        tb.append(tr);
      }
      const g = s.graph;
      if (g) {
        for (const [k, v] of [["critical path (events)", g.critical_path], ["max parallel width", g.max_width],
          ["spawn-tree depth", g.spawn_depth], ["structural parallelism", g.structural_parallelism]]) {
          const tr = el("tr");
          tr.append(el("th", { scope: "row" }, k), el("td", {}, showValue(v)));
          tb.append(tr);
        }
      }
      table.append(tb);
      sec.append(table);
      return sec;
    }

    legend() {
      const sec = el("section", { class: "mv-legend", "aria-label": "Edge types" });
      sec.append(el("h4", {}, "Edges"));
      const ul = el("ul");
      for (const k of EDGE_TYPES) {
        const li = el("li");
        const sw = el("span", { class: "mv-swatch mv-swatch-" + k, "aria-hidden": "true" });
        li.append(sw, `${k} (${fmt(this.m.edgeCount[k] || 0)})`);
        ul.append(li);
      }
      sec.append(ul);
      return sec;
    }

    findingsSection() {
      const m = this.m;
      const rep = this.unit.report || {};
      const sec = el("section", { class: "mv-findings", "aria-label": "Findings" });
      const list = rep.findings || [];
      sec.append(el("h4", {}, `Findings (${fmt(list.length)}${rep.omitted ? `, ${fmt(rep.omitted)} more not listed` : ""})`));
      if (list.length === 0) {
        sec.append(el("p", {}, "The validator found nothing."));
        return sec;
      }
      const ol = el("ol");
      list.slice(0, FINDINGS_LISTED).forEach((f, j) => {
        const li = el("li", { class: "mv-" + f.severity });
        const i = m.findingIndex[j];
        li.append(`line ${f.line}, column ${f.col}: ${f.severity}: ${f.pointer || "(root)"}: ${f.message} `);
        if (i >= 0) {
          const b = el("button", { type: "button", class: "mv-goto" }, `show event ${str(m.ev(i).id) || i}`);
          b.addEventListener("click", () => this.select(i, true));
          li.append(b);
        }
        ol.append(li);
      });
      sec.append(ol);
      return sec;
    }

    agentsSection() {
      const m = this.m;
      const sec = el("section", { class: "mv-agents", "aria-label": "Agents" });
      const tokensKnown = m.agents.some((a) => a.hasTokens);
      sec.append(el("h4", {}, "Agents"));
      const totalTokens = this.unit.report && this.unit.report.stats ? this.unit.report.stats.costs.tokens : undefined;
      sec.append(el("p", {}, tokensKnown ? "Tokens are the sum of the events' own tokens members." :
        `The events carry no tokens of their own; the trace's cost is ${totalTokens === undefined ? "unknown" : plural(totalTokens, "token")} in all. ` +
        "Time is from the agent's spawn (or first event) to its return (or last event)."));
      const wrap = el("div", { class: "table-scroll", tabindex: "0" });
      const table = el("table");
      table.append(el("caption", {}, `The ${plural(m.lanes.length, "lane")} in the order drawn` + (m.lanes.length > 200 ? " (the first 200)" : "")));
      const hr = el("tr");
      for (const h of ["agent", "role", "spawned by", "events", "tool calls", "tokens", "active (s)"]) {
        hr.append(el("th", { scope: "col" }, h));
      }
      const thead = el("thead");
      thead.append(hr);
      const tb = el("tbody");
      for (const a of m.lanes.slice(0, 200)) {
        const tr = el("tr");
        const start = Number.isNaN(a.spawnT) ? m.t[a.first] : a.spawnT;
        const end = Number.isNaN(a.endT) ? a.last : a.endT;
        tr.append(el("th", { scope: "row" }, (a.tool ? "tool " : "") + a.name), el("td", {}, a.role),
          el("td", {}, a.parent >= 0 ? m.agents[a.parent].name : ""), el("td", {}, fmt(a.count)),
          el("td", {}, fmt(a.toolCalls)), el("td", {}, a.hasTokens ? fmt(a.tokens) : "n/a"),
          el("td", {}, a.count ? `${fmt(start)} to ${fmt(end)} (${fmt(end - start)})` : ""));
        tb.append(tr);
      }
      table.append(thead, tb);
      wrap.append(table);
      sec.append(wrap);
      return sec;
    }

    rewardsSection() {
      const s = (this.unit.report && this.unit.report.stats) || {};
      const sec = el("section", { class: "mv-rewards", "aria-label": "Rewards" });
      sec.append(el("h4", {}, "Rewards"));
      const ul = el("ul");
      for (const c of s.rewards || []) {
        ul.append(el("li", {}, `${c.name}: ${fmt(c.value)} (the whole rollout)`));
      }
      if (this.m.rewarded) {
        ul.append(el("li", {}, `${plural(this.m.rewarded, "event")} carry a reward of their own, marked ★ on the timeline`));
      }
      if (!ul.firstChild) {
        ul.append(el("li", {}, "none"));
      }
      sec.append(ul);
      return sec;
    }

    tableSection() {
      const sec = el("section", { class: "mv-table", "aria-label": "Events as a table" });
      sec.append(el("h4", {}, "Events"));
      const nav = el("p", { class: "mv-pager" });
      this.prevPage = el("button", { type: "button" }, "Previous rows");
      this.nextPage = el("button", { type: "button" }, "Next rows");
      this.pageInfo = el("span", { "aria-live": "polite" });
      this.prevPage.addEventListener("click", () => this.showPage(this.page - 1));
      this.nextPage.addEventListener("click", () => this.showPage(this.page + 1));
      nav.append(this.prevPage, " ", this.nextPage, " ", this.pageInfo);
      const wrap = el("div", { class: "table-scroll", tabindex: "0" });
      this.table = el("table");
      wrap.append(this.table);
      sec.append(nav, wrap);
      this.page = 0;
      this.showPage(0);
      return sec;
    }

    showPage(p) {
      const m = this.m;
      const pages = Math.max(1, Math.ceil(m.n / PAGE_ROWS));
      this.page = Math.min(Math.max(0, p), pages - 1);
      const from = this.page * PAGE_ROWS;
      const to = Math.min(m.n, from + PAGE_ROWS);
      this.pageInfo.textContent = m.n ? `Events ${fmt(from + 1)} to ${fmt(to)} of ${fmt(m.n)}, in the trace's order.` : "No events.";
      this.prevPage.disabled = this.page === 0;
      this.nextPage.disabled = this.page >= pages - 1;
      const cap = el("caption", {}, "The trace's events: time, agent, type, relation, JSON Pointer and findings");
      const hr = el("tr");
      for (const h of ["event", "t (s)", "agent", "type", "from, to, tool", "pointer", "findings"]) {
        hr.append(el("th", { scope: "col" }, h));
      }
      const thead = el("thead");
      thead.append(hr);
      const missing = [];
      for (let i = from; i < to; i++) if (!m.has(i)) missing.push(i);
      if (missing.length) {
        // The rows' events come from the worker: the page is drawn when
        // they are here, unless the reader has moved on.
        const want = this.page;
        m.load(missing).then(() => {
          if (this.page === want) this.showPage(want);
        });
        this.pageInfo.textContent += " Reading them…";
        return;
      }
      const tb = el("tbody");
      for (let i = from; i < to; i++) {
        const ev = m.ev(i);
        const tr = el("tr");
        if (i === this.cur) tr.setAttribute("aria-current", "true");
        const th = el("th", { scope: "row" });
        const b = el("button", { type: "button", class: "mv-goto" }, str(ev.id) || String(i));
        b.addEventListener("click", () => this.select(i, true));
        th.append(b);
        const rel = ["from", "to", "tool"].filter((k) => typeof ev[k] === "string").map((k) => `${k} ${ev[k]}`).join(", ");
        const fs = m.findingsAt.get(i) || [];
        const ptr = el("td");
        ptr.append(el("code", {}, `/events/${i}`));
        tr.append(th, el("td", {}, fmt(m.t[i])), el("td", {}, str(ev.agent)), el("td", {}, str(ev.type)), el("td", {}, rel),
          ptr, el("td", {}, fs.map((f) => `${f.severity}: ${f.message}`).join("; ")));
        tb.append(tr);
      }
      this.table.replaceChildren(cap, thead, tb);
    }

    wire() {
      const c = this.canvas;
      let drag = null;
      c.addEventListener("pointerdown", (e) => {
        drag = { x: e.clientX, t0: this.t0, t1: this.t1, moved: false };
        c.setPointerCapture(e.pointerId);
      });
      c.addEventListener("pointermove", (e) => {
        if (drag) {
          const dx = e.clientX - drag.x;
          if (Math.abs(dx) > 3) drag.moved = true;
          if (drag.moved) {
            const dt = (dx / this.plotW()) * (drag.t1 - drag.t0);
            this.setWindow(drag.t0 - dt, drag.t1 - dt);
          }
          return;
        }
        const i = this.hit(e);
        if (i !== this.hover) {
          this.hover = i;
          this.showTooltip(i, e);
          this.redraw();
        }
      });
      c.addEventListener("pointerup", (e) => {
        const d = drag;
        drag = null;
        if (d && !d.moved) {
          const i = this.hit(e);
          if (i >= 0) this.select(i, false);
        }
      });
      c.addEventListener("pointerleave", () => {
        this.hover = -1;
        this.tooltip.hidden = true;
        this.redraw();
      });
      c.addEventListener("wheel", (e) => {
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          this.zoom(e.deltaY > 0 ? 1.25 : 0.8, this.timeAt(e));
        } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          e.preventDefault();
          const d = (e.deltaX || e.deltaY) / this.plotW() * (this.t1 - this.t0);
          this.setWindow(this.t0 + d, this.t1 + d);
        }
      }, { passive: false });
      c.addEventListener("keydown", (e) => this.key(e));
      this.scroll.addEventListener("scroll", () => this.redraw());
      this.resizeObserver = new ResizeObserver(() => this.resize());
      this.resizeObserver.observe(this.scroll);
      this.media = matchMedia("(prefers-color-scheme: dark)");
      this.media.addEventListener("change", () => {
        this.colors = null;
        this.redraw();
      });
    }

    plotW() {
      return Math.max(10, this.width - LABEL_W - 8);
    }

    x(t) {
      return LABEL_W + ((t - this.t0) / (this.t1 - this.t0)) * this.plotW();
    }

    timeAt(e) {
      const r = this.canvas.getBoundingClientRect();
      return this.t0 + ((e.clientX - r.left - LABEL_W) / this.plotW()) * (this.t1 - this.t0);
    }

    // firstLane and laneY read the scroll position draw() took, so that a
    // frame reads the layout once.
    firstLane() {
      return Math.floor(this.top / LANE_H);
    }

    laneY(l) {
      return AXIS_H + (l - this.firstLane()) * LANE_H - (this.top % LANE_H) + LANE_H / 2;
    }

    resize() {
      const w = this.scroll.clientWidth;
      // The box grows with the lanes up to its max-height (viewer.css).
      const maxH = parseFloat(getComputedStyle(this.scroll).maxHeight) || 480;
      const h = Math.min(maxH - 2, AXIS_H + this.m.lanes.length * LANE_H + 4);
      this.width = w;
      this.height = Math.max(h, AXIS_H + LANE_H);
      const dpr = window.devicePixelRatio || 1;
      const cw = Math.round(w * dpr);
      const ch = Math.round(this.height * dpr);
      const total = AXIS_H + this.m.lanes.length * LANE_H + 4;
      this.rest.style.height = Math.max(0, total - this.height) + "px";
      // Setting a canvas' size clears it, even to the same size: only on a
      // change, and then drawn at once, so no frame shows it blank.
      if (this.canvas.width !== cw || this.canvas.height !== ch) {
        this.canvas.width = cw;
        this.canvas.height = ch;
        this.canvas.style.width = w + "px";
        this.canvas.style.height = this.height + "px";
        this.draw();
      }
    }

    setWindow(a, b) {
      const span = this.m.tMax - this.m.tMin || 1;
      let w = b - a;
      const minW = span / 1e6;
      if (w < minW) {
        const c = (a + b) / 2;
        a = c - minW / 2;
        w = minW;
      }
      if (w > span * 1.2) {
        a = this.m.tMin - span * 0.1;
        w = span * 1.2;
      }
      this.t0 = a;
      this.t1 = a + w;
      this.redraw();
    }

    zoom(f, at) {
      this.setWindow(at - (at - this.t0) * f, at + (this.t1 - at) * f);
    }

    redraw() {
      if (!this.pending) {
        this.pending = true;
        requestAnimationFrame(() => {
          this.pending = false;
          this.draw();
        });
      }
    }

    palette() {
      if (!this.colors) {
        const cs = getComputedStyle(this.box);
        const v = (name) => cs.getPropertyValue(name).trim() || "#888";
        this.colors = { bg: v("--mv-bg"), stripe: v("--mv-stripe"), fg: v("--mv-fg"), muted: v("--mv-muted"),
          bar: v("--mv-bar"), finding: v("--mv-finding"), focus: v("--mv-focus"), edge: {}, ev: {} };
        for (const k of EDGE_TYPES) this.colors.edge[k] = v(EDGES[k].varName);
        for (const k of EVENT_TYPES) this.colors.ev[k] = v(EVENT_VAR[k]);
      }
      return this.colors;
    }

    // draw paints the lanes in view: labels, activity bars, events (or
    // their density), edges, findings and the selection.
    draw() {
      const m = this.m;
      const start = performance.now();
      const ctx = this.canvas.getContext("2d");
      this.top = this.scroll.scrollTop;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const C = this.palette();
      const W = this.width;
      const H = this.height;
      ctx.fillStyle = C.bg;
      ctx.fillRect(0, 0, W, H);
      const l0 = this.firstLane();
      const l1 = Math.min(m.lanes.length, l0 + Math.ceil((H - AXIS_H) / LANE_H) + 1);
      this.visibleLanes = [l0, l1];
      const pw = this.plotW();
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, AXIS_H, W, H - AXIS_H);
      ctx.clip();
      ctx.font = "12px system-ui, sans-serif";
      ctx.textBaseline = "middle";
      let inView = 0;
      let dense = 0;
      const rng = [];
      for (let l = l0; l < l1; l++) {
        const y = this.laneY(l);
        if ((l & 1) === 0) {
          ctx.fillStyle = C.stripe;
          ctx.fillRect(0, y - LANE_H / 2, W, LANE_H);
        }
        const a = m.lanes[l];
        ctx.fillStyle = a.tool ? C.muted : C.fg;
        const label = (a.tool ? "⚙ " : "") + a.name;
        ctx.fillText(label.length > 22 ? label.slice(0, 21) + "…" : label, 4 + Math.min(a.depth || 0, 8) * 6, y);
        const lo = lowerBound(m, l, this.t0);
        const hi = lowerBound(m, l, this.t1 + 1e-12 * Math.abs(this.t1));
        rng.push([lo, hi]);
        inView += hi - lo;
      }
      ctx.beginPath();
      ctx.rect(LABEL_W, AXIS_H, pw, H - AXIS_H);
      ctx.clip();
      // Activity: spawn to return.
      ctx.fillStyle = C.bar;
      for (let l = l0; l < l1; l++) {
        const a = m.lanes[l];
        if (!a.count) continue;
        const s = Number.isNaN(a.spawnT) ? m.t[a.first] : a.spawnT;
        const e = Number.isNaN(a.endT) ? a.last : a.endT;
        const xa = this.x(s);
        const xb = Math.max(this.x(e), xa + 2);
        ctx.fillRect(xa, this.laneY(l) - 4, xb - xa, 8);
      }
      // Edges whose ends are in the lanes in view.
      const drawn = {};
      const nE = m.edgesReady ? m.nEdges : 0;
      const box = [LABEL_W - 20, AXIS_H - 20, W + 20, H + 20];
      let edgesInView = 0;
      if (m.edgesReady && inView <= EDGE_LIMIT) {
        const paths = EDGE_TYPES.map(() => []);
        for (let k = 0; k < nE; k++) {
          const s = m.src[k];
          const d = m.dst[k];
          if (s < 0 || d < 0) continue;
          const ls = m.agents[m.agentOf[s]].lane;
          const ld = m.agents[m.agentOf[d]].lane;
          if ((ls < l0 || ls >= l1) && (ld < l0 || ld >= l1)) continue;
          const ta = m.t[s];
          const tb = m.t[d];
          if (Math.max(ta, tb) < this.t0 || Math.min(ta, tb) > this.t1) continue;
          const ty = m.etype[k];
          if (ty < 0) continue;
          paths[ty].push(k);
          edgesInView++;
        }
        if (edgesInView <= EDGE_LIMIT) {
          for (let ty = 0; ty < EDGE_TYPES.length; ty++) {
            const list = paths[ty];
            if (!list.length) continue;
            const name = EDGE_TYPES[ty];
            ctx.strokeStyle = C.edge[name];
            ctx.lineWidth = EDGES[name].width;
            // Many edges are drawn solid: a dash pattern over thousands of
            // paths costs more than the frame has.
            ctx.setLineDash(edgesInView > 3000 ? [] : EDGES[name].dash);
            ctx.beginPath();
            for (const k of list) {
              const s = m.src[k];
              const d = m.dst[k];
              const seg = clip(this.x(m.t[s]), this.laneY(m.agents[m.agentOf[s]].lane),
                this.x(m.t[d]), this.laneY(m.agents[m.agentOf[d]].lane), box);
              if (!seg) continue;
              const [xs, ys, xd, yd, whole] = seg;
              ctx.moveTo(xs, ys);
              if (!whole) {
                ctx.lineTo(xd, yd); // an end out of view: straight towards it
              } else if (ys === yd) {
                ctx.quadraticCurveTo((xs + xd) / 2, ys - LANE_H * 0.45, xd, yd);
              } else {
                ctx.bezierCurveTo(xs + 6, ys, xd - 6, yd, xd, yd);
              }
            }
            ctx.stroke();
            drawn[name] = list.length;
          }
          ctx.setLineDash([]);
        }
      }
      // Events, or a density strip where a lane has more than the plot.
      for (let l = l0; l < l1; l++) {
        const [lo, hi] = rng[l - l0];
        const y = this.laneY(l);
        if (hi - lo > pw / 2) {
          dense++;
          const bins = new Uint32Array(Math.ceil(pw) + 1);
          let max = 0;
          for (let p = lo; p < hi; p++) {
            const b = Math.floor(this.x(m.t[m.laneEvents[p]]) - LABEL_W);
            if (b >= 0 && b < bins.length && ++bins[b] > max) max = bins[b];
          }
          ctx.fillStyle = C.fg;
          for (let b = 0; b < bins.length; b++) {
            if (bins[b]) {
              ctx.globalAlpha = 0.25 + 0.75 * Math.log1p(bins[b]) / Math.log1p(max);
              ctx.fillRect(LABEL_W + b, y - 7, 1, 14);
            }
          }
          ctx.globalAlpha = 1;
          continue;
        }
        for (let p = lo; p < hi; p++) {
          const i = m.laneEvents[p];
          const ty = m.type[i];
          ctx.fillStyle = ty >= 0 ? C.ev[EVENT_TYPES[ty]] : C.fg;
          const xi = this.x(m.t[i]);
          if (ty === 4 || ty === 5) { // tool call and result: squares
            ctx.fillRect(xi - 4, y - 4, 8, 8);
          } else if (ty === 1 || ty === 6) { // spawn and return: triangles
            ctx.beginPath();
            const dir = ty === 1 ? 1 : -1;
            ctx.moveTo(xi - 5 * dir, y - 6);
            ctx.lineTo(xi + 5 * dir, y);
            ctx.lineTo(xi - 5 * dir, y + 6);
            ctx.fill();
          } else {
            ctx.beginPath();
            ctx.arc(xi, y, 4.5, 0, 2 * Math.PI);
            ctx.fill();
          }
          if (m.reward[i]) {
            ctx.fillStyle = C.fg;
            ctx.fillText("★", xi + 5, y - 7);
          }
          if (m.findingsAt.has(i)) {
            ctx.strokeStyle = C.finding;
            ctx.lineWidth = 2;
            ctx.beginPath();
            ctx.arc(xi, y, 8, 0, 2 * Math.PI);
            ctx.stroke();
          }
        }
      }
      for (const [i, color] of [[this.hover, C.muted], [this.cur, C.focus]]) {
        if (i < 0) continue;
        const l = m.agents[m.agentOf[i]].lane;
        if (l < l0 || l >= l1) continue;
        ctx.strokeStyle = color;
        ctx.lineWidth = 2;
        ctx.strokeRect(this.x(m.t[i]) - 7, this.laneY(l) - 9, 14, 18);
      }
      ctx.restore();
      this.drawAxis(ctx, C, W);
      this.drawn = drawn;
      this.drawnWindow = [this.t0, this.t1];
      this.state = { inView, dense, edgesInView, lanes: [l0, l1] };
      let note = "";
      if (dense) {
        const one = dense === 1;
        note = `${plural(dense, "lane")} in view ${one ? "holds" : "hold"} more events than the plot has pixels and ${one ? "is" : "are"} drawn as density (darker: more events); zoom in to see single events.`;
      }
      if (inView > EDGE_LIMIT || edgesInView > EDGE_LIMIT) {
        note += ` ${fmt(Math.max(inView, edgesInView))} events or edges are in view, more than ${fmt(EDGE_LIMIT)}: edges are drawn once you zoom in.`;
      }
      if (this.note.textContent !== note.trim()) this.note.textContent = note.trim();
      this.drawMs = performance.now() - start;
    }

    drawAxis(ctx, C, W) {
      ctx.fillStyle = C.bg;
      ctx.fillRect(0, 0, W, AXIS_H);
      ctx.strokeStyle = C.muted;
      ctx.fillStyle = C.fg;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(LABEL_W, AXIS_H - 0.5);
      ctx.lineTo(W, AXIS_H - 0.5);
      ctx.stroke();
      const span = this.t1 - this.t0;
      const raw = span / Math.max(2, this.plotW() / 90);
      const p = Math.pow(10, Math.floor(Math.log10(raw)));
      const step = [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw);
      ctx.textBaseline = "alphabetic";
      ctx.font = "11px system-ui, sans-serif";
      ctx.fillText("t (s)", 4, AXIS_H - 6);
      for (let v = Math.ceil(this.t0 / step) * step; v <= this.t1; v += step) {
        const x = this.x(v);
        ctx.fillRect(x, AXIS_H - 5, 1, 5);
        ctx.fillText(String(Math.round(v / step) * step >= 1e5 ? v.toExponential(2) : +v.toPrecision(6)), x + 2, AXIS_H - 7);
      }
    }

    // hit finds the event nearest the pointer in the lane under it, within
    // eight pixels.
    hit(e) {
      const m = this.m;
      const r = this.canvas.getBoundingClientRect();
      const px = e.clientX - r.left;
      const py = e.clientY - r.top;
      if (py < AXIS_H || px < LABEL_W) return -1;
      this.top = this.scroll.scrollTop;
      const l = Math.floor((py - AXIS_H + (this.top % LANE_H)) / LANE_H) + this.firstLane();
      if (l < 0 || l >= m.lanes.length) return -1;
      return this.nearestInLane(l, this.timeAt(e), 8);
    }

    nearestInLane(l, t, px) {
      const m = this.m;
      const p = lowerBound(m, l, t);
      let best = -1;
      let bd = Infinity;
      for (const q of [p - 1, p]) {
        if (q < m.laneStart[l] || q >= m.laneStart[l + 1]) continue;
        const i = m.laneEvents[q];
        const d = Math.abs(this.x(m.t[i]) - this.x(t));
        if (d < bd) {
          bd = d;
          best = i;
        }
      }
      return px === undefined || bd <= px ? best : -1;
    }

    showTooltip(i, e) {
      if (i < 0) {
        this.tooltip.hidden = true;
        return;
      }
      if (!this.m.has(i)) {
        this.m.load([i]).then(() => {
          if (this.hover === i) this.showTooltip(i, e);
        });
        return;
      }
      const ev = this.m.ev(i);
      this.tooltip.textContent = `${str(ev.id)} · ${str(ev.type)} · ${str(ev.agent)} · t ${fmt(this.m.t[i])}` +
        (this.m.findingsAt.has(i) ? ` · ${plural(this.m.findingsAt.get(i).length, "finding")}` : "");
      const r = this.box.getBoundingClientRect();
      this.tooltip.style.left = e.clientX - r.left + 12 + "px";
      this.tooltip.style.top = e.clientY - r.top + 12 + "px";
      this.tooltip.hidden = false;
      this.describe(i);
    }

    // describe shows an event's fields, pointer, edges and findings.
    describe(i) {
      const m = this.m;
      const ins = [];
      const outs = [];
      for (let k = 0; m.edgesReady && k < m.nEdges; k++) {
        if (m.src[k] === i && outs.length < 20) outs.push(k);
        if (m.dst[k] === i && ins.length < 20) ins.push(k);
      }
      // The event and those at the other ends of its edges come from the
      // worker, if not here yet.
      const need = [i, ...ins.map((k) => m.src[k]), ...outs.map((k) => m.dst[k])].filter((j) => j >= 0 && !m.has(j));
      if (need.length) {
        m.load(need).then(() => {
          if (this.cur === i || this.hover === i) this.describe(i);
        });
        return;
      }
      const ev = m.ev(i);
      const d = this.details;
      d.replaceChildren();
      d.append(el("h4", {}, `Event ${str(ev.id) || i}`));
      const dl = el("dl");
      const add = (k, v) => dl.append(el("dt", {}, k), el("dd", {}, v));
      add("JSON Pointer", `/events/${i}`);
      for (const [k, v] of Object.entries(ev)) {
        add(k, typeof v === "string" ? v : JSON.stringify(v));
      }
      const name = (k, j) => `${EDGE_TYPES[m.etype[k]] || "?"} ${str(m.ev(j).id)} (/edges/${k})`;
      const none = m.edgesReady ? "none" : "being read";
      add("edges in", ins.map((k) => name(k, m.src[k])).join(", ") || none);
      add("edges out", outs.map((k) => name(k, m.dst[k])).join(", ") || none);
      d.append(dl);
      const fs = m.findingsAt.get(i);
      if (fs) {
        const ul = el("ul", { class: "mv-event-findings" });
        for (const f of fs) ul.append(el("li", { class: "mv-" + f.severity }, `${f.severity}: ${f.pointer}: ${f.message}`));
        d.append(ul);
      }
    }

    // select makes an event current: described, framed, its row shown.
    select(i, focus) {
      const m = this.m;
      if (i < 0 || i >= m.n) return;
      this.cur = i;
      const t = m.t[i];
      if (t < this.t0 || t > this.t1) {
        const w = this.t1 - this.t0;
        this.setWindow(t - w / 2, t + w / 2);
      }
      const l = m.agents[m.agentOf[i]].lane;
      const top = l * LANE_H;
      const viewH = this.height - AXIS_H;
      if (top < this.scroll.scrollTop || top + LANE_H > this.scroll.scrollTop + viewH) {
        this.scroll.scrollTop = Math.max(0, top - viewH / 2);
      }
      this.describe(i);
      const p = Math.floor(i / PAGE_ROWS);
      this.showPage(p);
      this.host.dataset.current = String(i);
      this.redraw();
      if (focus) this.canvas.focus({ preventScroll: false });
    }

    key(e) {
      const m = this.m;
      if (m.n === 0) return;
      let i = this.cur;
      const laneOf = (j) => m.agents[m.agentOf[j]].lane;
      const pos = (j) => {
        const l = laneOf(j);
        for (let q = m.laneStart[l]; q < m.laneStart[l + 1]; q++) if (m.laneEvents[q] === j) return q;
        return -1;
      };
      switch (e.key) {
        case "ArrowRight":
        case "ArrowLeft": {
          if (i < 0) {
            i = m.laneEvents[m.laneStart[0]];
            break;
          }
          const l = laneOf(i);
          const q = pos(i) + (e.key === "ArrowRight" ? 1 : -1);
          if (q >= m.laneStart[l] && q < m.laneStart[l + 1]) i = m.laneEvents[q];
          break;
        }
        case "ArrowUp":
        case "ArrowDown": {
          const t = i < 0 ? this.t0 : m.t[i];
          let l = i < 0 ? 0 : laneOf(i);
          const dir = e.key === "ArrowDown" ? 1 : -1;
          for (l += dir; l >= 0 && l < m.lanes.length; l += dir) {
            if (m.laneStart[l + 1] > m.laneStart[l]) {
              i = this.nearestInLane(l, t);
              break;
            }
          }
          break;
        }
        case "n":
        case "p": {
          const o = timeOrder(m);
          const r = i < 0 ? -1 : m.rank[i];
          const nr = e.key === "n" ? r + 1 : r - 1;
          if (nr >= 0 && nr < m.n) i = o[nr];
          break;
        }
        case "Home":
          i = timeOrder(m)[0];
          break;
        case "End":
          i = timeOrder(m)[m.n - 1];
          break;
        case "f": {
          const keys = Array.from(m.findingsAt.keys()).sort((a, b) => a - b);
          if (keys.length) i = keys.find((k) => k > this.cur) ?? keys[0];
          break;
        }
        case "+":
        case "=":
          this.zoom(0.5, i >= 0 ? m.t[i] : (this.t0 + this.t1) / 2);
          e.preventDefault();
          return;
        case "-":
          this.zoom(2, i >= 0 ? m.t[i] : (this.t0 + this.t1) / 2);
          e.preventDefault();
          return;
        default:
          return;
      }
      e.preventDefault();
      this.select(i, false);
    }

    // snapshot is what the browser tests read: lanes, drawn edges,
    // placed findings and the drawing mode.
    snapshot() {
      const m = this.m;
      return {
        events: m.n,
        lanes: m.lanes.map((a) => ({ name: a.name, depth: a.depth, parent: a.parent >= 0 ? m.agents[a.parent].name : "", tool: a.tool })),
        lanesInView: this.visibleLanes,
        laneHeight: LANE_H,
        axisHeight: AXIS_H,
        labelWidth: LABEL_W,
        edgesDrawn: this.drawn,
        edgeCount: m.edgeCount,
        findingsOnEvents: Array.from(m.findingsAt.keys()).sort((a, b) => a - b),
        traceFindings: m.traceFindings.length,
        inView: this.state.inView,
        dense: this.state.dense,
        note: this.note.textContent,
        current: this.cur,
        // The window and lanes of the last frame drawn; settled once no
        // frame is pending, when they are what the canvas shows.
        window: this.drawnWindow,
        settled: !this.pending && this.m.edgesReady,
        drawMs: this.drawMs,
        // Whether a Web Worker read the trace (else the page did).
        worker: m.be.inWorker,
      };
    }
  }

  // load asks the worker for units (be.file or be.open, as call does),
  // saying in a status note of root how far it is, and mounts them. While
  // the worker reads, root's data-phase is "reading": the page's thread is
  // free, which the browser tests check. t0 is when the reading began.
  async function load(root, call, notes, t0) {
    root.dataset.ready = "false";
    root.dataset.phase = "reading";
    const status = el("p", { role: "status", class: "mv-note" }, "Reading the trace…");
    root.append(status);
    const opened = await call((text) => {
      status.textContent = `${text}…`;
    });
    root.dataset.phase = "drawing";
    root.dataset.parseMs = String(Math.round(opened.parseMs || 0));
    if (opened.parseSpan && !opened.lite) root.dataset.parseSpan = opened.parseSpan.join(" ");
    root.dataset.modelMs = String(Math.round(opened.units.reduce((a, u) => a + u.model.modelMs, 0)));
    mount(root, opened.units, opened.checklist || [], notes, t0);
  }

  // mount shows units in root: one trace at once, several as a list.
  function mount(root, units, checklist, notes, t0) {
    let view = null;
    const open = (k, withBack) => {
      const host = el("div", { class: "mv-host" });
      root.replaceChildren(...notes, host);
      view = new View(host, units[k], checklist, withBack ? () => list() : null);
      root.masrlView = view;
      // The view drew when it sized its canvas; else now.
      if (!view.drawnWindow) view.draw();
      // Ready once the first frame is painted: the view answers input
      // from here on. openMs is the time from the parsed data to that
      // frame, readyAt the time since navigation began (make bench-viewer
      // reads both).
      requestAnimationFrame(() => {
        root.dataset.openMs = String(Math.round(performance.now() - t0));
        root.dataset.readyAt = String(Math.round(performance.now()));
        root.dataset.ready = "true";
        root.dataset.phase = "ready";
        // The edges after the first frame; then the frame again with them.
        const v = view;
        setTimeout(() => resolveEdges(v.m).then(() => {
          v.redraw();
          if (v.cur >= 0) v.describe(v.cur);
        }), 0);
      });
    };
    const list = () => {
      view = null;
      root.masrlView = null;
      root.replaceChildren(...notes, batchList(units, (k) => open(k, true)));
      root.dataset.ready = "true";
    };
    if (units.length === 1) {
      open(0, false);
    } else {
      list();
    }
  }

  // batchList is the sortable table of a JSON Lines batch.
  function batchList(units, open) {
    const cols = [
      ["trace", (u) => (u.line ? `line ${u.line}` : u.name) + (u.report.stats ? ` ${u.report.stats.trace_id}` : ""), false],
      ["events", (u) => u.model.n, true],
      ["agents", (u) => u.model.lanes.length, true],
      ["tool calls", (u) => (u.report.stats ? u.report.stats.tool_calls : NaN), true],
      ["tokens", (u) => (u.report.stats ? u.report.stats.costs.tokens : NaN), true],
      ["wall clock (s)", (u) => (u.report.stats ? u.report.stats.costs.wall_clock_s : NaN), true],
      ["critical path", (u) => (u.report.stats ? u.report.stats.graph.critical_path : NaN), true],
      ["errors", (u) => u.report.errors || 0, true],
      ["warnings", (u) => u.report.warnings || 0, true],
    ];
    const sec = el("section", { class: "mv-batch", "aria-label": "Traces of the batch" });
    sec.append(el("h3", {}, `${plural(units.length, "trace")}`));
    sec.append(el("p", {}, "Sort by a column with its heading's button; open a trace to see it."));
    const wrap = el("div", { class: "table-scroll", tabindex: "0" });
    const table = el("table");
    table.append(el("caption", {}, "The traces of the file with their measures from the validator"));
    const thead = el("thead");
    const hr = el("tr");
    const tb = el("tbody");
    let order = units.map((_, k) => k);
    let sortCol = -1;
    let dir = 1;
    const ths = [];
    const fill = () => {
      tb.replaceChildren();
      for (const k of order) {
        const u = units[k];
        const tr = el("tr");
        cols.forEach(([, f], c) => {
          const v = f(u);
          const cell = c === 0 ? el("th", { scope: "row" }) : el("td", {}, Number.isNaN(v) ? "n/a" : fmt(v));
          if (c === 0) {
            const b = el("button", { type: "button", class: "mv-open" }, `Open ${v}`);
            b.addEventListener("click", () => open(k));
            cell.append(b);
          }
          tr.append(cell);
        });
        tb.append(tr);
      }
    };
    cols.forEach(([name, f, numeric], c) => {
      const th = el("th", { scope: "col", "aria-sort": "none" });
      const b = el("button", { type: "button" }, name);
      b.addEventListener("click", () => {
        dir = sortCol === c ? -dir : 1;
        sortCol = c;
        order = units.map((_, k) => k).sort((a, z) => {
          const va = f(units[a]);
          const vz = f(units[z]);
          const d = numeric ? (Number.isNaN(va) ? -Infinity : va) - (Number.isNaN(vz) ? -Infinity : vz) : String(va).localeCompare(String(vz));
          return d * dir || a - z;
        });
        ths.forEach((h, j) => h.setAttribute("aria-sort", j === c ? (dir > 0 ? "ascending" : "descending") : "none"));
        fill();
      });
      th.append(b);
      ths.push(th);
      hr.append(th);
    });
    thead.append(hr);
    table.append(thead, tb);
    wrap.append(table);
    sec.append(wrap);
    fill();
    return sec;
  }

  // openFile shows a file the reader picked or dropped on the traces
  // page in stage, saying how far it is in status. The page's picker
  // (validator.js) loads this script only then and calls it once the
  // validator's WebAssembly module (masrlImport, masrlValidate) is ready.
  async function openFile(f, stage, status) {
    const text = await f.text();
    status.textContent = `Checking ${f.name}…`;
    await new Promise((r) => setTimeout(r, 0));
    const t0 = performance.now();
    const { units, notes } = unitsOf(f.name, text);
    status.textContent = `${f.name}: ${plural(units.length, "trace")}.`;
    const checklistEl = document.getElementById("masrl-checklist");
    const checklist = checklistEl ? JSON.parse(checklistEl.textContent) : [];
    if (stage.masrlBackend) stage.masrlBackend.close();
    const be = new Backend(text.length);
    stage.masrlBackend = be;
    stage.replaceChildren();
    await load(stage, async (progress) => ({ ...(await be.open(units, progress)), checklist }), notes, t0);
  }

  // unitsOf reads a file's text as the command line does: OTLP/JSON is
  // imported, a .jsonl or .ndjson file (or text whose lines are each a JSON
  // object) is a batch of one trace per line, anything else one trace.
  function unitsOf(name, text) {
    const validate = (s) => {
      try {
        return JSON.parse(globalThis.masrlValidate(s, { strict: false }));
      } catch (e) {
        return { error: String(e), findings: [] };
      }
    };
    const notes = [];
    if (/^\s*\{\s*"resourceSpans"\s*:/.test(text.slice(0, 1000))) {
      const rep = JSON.parse(globalThis.masrlImport(text));
      const p = el("p", { class: "mv-import" },
        `OpenTelemetry import: ${plural(rep.traces.length, "trace")}, ${plural(rep.errors || 0, "error")}, ${plural(rep.warnings || 0, "warning")}.` +
        (rep.error ? " The import failed: " + rep.error : ""));
      notes.push(p);
      if (rep.diagnostics.length) {
        const ol = el("ol", { class: "mv-import-findings" });
        for (const d of rep.diagnostics) {
          ol.append(el("li", { class: "mv-" + d.severity }, `line ${d.line}: ${d.severity}: ${d.span_id ? "span " + d.span_id + ": " : ""}${d.message}`));
        }
        notes.push(ol);
      }
      const units = rep.traces.map((t) => ({ name: `${name}, OTel trace ${t.trace_id}`, line: 0, report: validate(t.json), text: t.json }));
      return { units, notes };
    }
    const lines = text.split("\n");
    const nonBlank = lines.filter((l) => l.trim() !== "").length;
    const jsonl = /\.(jsonl|ndjson)$/i.test(name) || (nonBlank > 1 && parseTrace(lines.find((l) => l.trim() !== "")) !== null);
    if (jsonl) {
      const units = [];
      lines.forEach((l, k) => {
        if (l.trim() !== "") units.push({ name, line: k + 1, report: validate(l), text: l });
      });
      return { units, notes };
    }
    return { units: [{ name, line: 0, report: validate(text), text }], notes };
  }

  globalThis.MasrlViewer = {
    openFile,
    unitsOf,
    // state returns what the browser tests check of the trace shown in
    // root: on the traces page the stage below the picker, in a written
    // file #masrl-viewer.
    state(root) {
      const r = root || document.querySelector("#masrl-viewer .mv-stage") || document.getElementById("masrl-viewer");
      return r && r.masrlView ? r.masrlView.snapshot() : null;
    },
  };

  // A written file shows its data island at once; on the traces page the
  // picker calls openFile.
  const root = document.getElementById("masrl-viewer");
  const dataEl = document.getElementById("masrl-viewer-data");
  if (root && dataEl) {
    // The self-contained file: everything is embedded. The worker parses
    // the data island; a large one says so first, as copying its text to
    // the worker holds the page a moment (about 0.1 s per 100 MB here).
    const t0 = performance.now();
    const text = dataEl.textContent;
    dataEl.textContent = ""; // the worker's copy is the one kept
    // With lite traces (lite.go) this script runs before the browser has
    // the whole traces, the island after it: the page (the worker, for
    // lite traces above WORKER_LITE) builds the first frame from the lite
    // ones meanwhile, and the worker reads the whole ones once the
    // document is parsed, off the page's thread.
    const restId = dataEl.dataset.rest;
    const start = () => {
      const be = new Backend(text.length, !!restId);
      // The parse of the whole traces, when the page has drawn from the
      // lite ones: the browser tests check the page answered input
      // meanwhile.
      be.onParsed = (msg) => {
        root.dataset.parseSpan = msg.parseSpan.join(" ");
        root.dataset.wholeParseMs = String(Math.round(msg.parseMs));
      };
      // load sends the first island; the whole traces follow once the
      // first frame is drawn and the document parsed, so that their
      // parse does not compete with the first frame for the CPU.
      const loaded = load(root, (progress) => (restId ? be.lite(text, progress) : be.file(text, progress)), [], t0);
      loaded.catch((e) => {
        root.replaceChildren(el("p", { role: "alert" }, `Cannot show the trace: ${e.message}`));
        root.dataset.ready = "true";
      });
      if (restId) {
        const rest = () => {
          const restEl = document.getElementById(restId);
          const whole = restEl ? restEl.textContent : "[]";
          if (restEl) restEl.textContent = "";
          be.wholeTraces(whole);
        };
        const parsed = document.readyState === "loading" ?
          new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true })) : Promise.resolve();
        const drawn = loaded.then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))), () => {});
        Promise.all([parsed, drawn]).then(rest);
      }
    };
    if (text.length > 20e6) {
      root.append(el("p", { role: "status", class: "mv-note" },
        `Opening a large trace file (${Math.round(text.length / 1e6)} MB of JSON): this takes a few seconds. ` +
        "Lanes with more events than the plot has pixels are drawn as density, and edges once you zoom in."));
      requestAnimationFrame(() => setTimeout(start, 0));
    } else {
      start();
    }
  }
})();
