// validator.js: the in-browser orchestration-trace validator of the masrl
// site. Vanilla JavaScript, no dependencies, nothing from a CDN.
//
// Embed it in a page that also serves masrl.wasm and wasm_exec.js (both from
// `make wasm`, in bin/) next to it:
//
//   <div id="masrl-validator"></div>
//   <script src="wasm_exec.js"></script>
//   <script src="validator.js"></script>
//
// The element gets a text area (paste a trace), a file picker and a drop
// zone (drop a file), a "strict" switch and a Validate button. Every
// finding and the trace's measures are shown; all text from the trace goes
// through textContent, never innerHTML. Files are read in the browser and
// never leave it.
//
// OpenTelemetry input (OTLP/JSON, as the collector's file exporter writes
// it: text that starts with {"resourceSpans") is imported first with
// masrlImport, the same mapping as `masrl trace import`; the import's
// warnings are listed, and each imported trace can be picked and is
// validated like a pasted one.
//
// The WebAssembly module (several megabytes, and its compilation one long
// task) is fetched only when the reader turns to the validator: focus or a
// press inside it, a file dragged over the box, or Validate. A reader who
// only reads the page costs nothing, and its load stays responsive.
(function () {
  "use strict";

  const root = document.getElementById("masrl-validator");
  if (!root) {
    return;
  }
  // Resolve the module relative to this script, so that the page can live
  // anywhere; fall back to the page's own directory.
  const scriptURL = (document.currentScript && document.currentScript.src) || document.baseURI;
  const wasmURL = new URL("masrl.wasm", scriptURL);

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

  // count says how many of noun there are: "1 error", "2 errors".
  function count(n, noun) {
    return n === 1 ? `1 ${noun}` : `${n} ${noun}s`;
  }

  // The form.
  const input = el("textarea", { rows: "12", cols: "80", spellcheck: "false", "aria-label": "Trace JSON" });
  input.placeholder =
    "Paste an orchestration trace (JSON) or OpenTelemetry spans (OTLP/JSON lines) here, or drop a file on this box.";
  const file = el("input", { type: "file", accept: ".json,.jsonl,application/json", "aria-label": "Trace or OTLP file" });
  const strictBox = el("input", { type: "checkbox", id: "masrl-strict" });
  const strictLabel = el("label", { for: "masrl-strict" }, " strict (warnings count as errors)");
  const button = el("button", { type: "button" }, "Validate");
  const status = el("p", { role: "status" });
  const findingsList = el("ol", { class: "masrl-findings" });
  const statsTable = el("table", { class: "masrl-stats" });
  const controls = el("p");
  controls.append(file, " ", strictBox, strictLabel, " ", button);
  // The OpenTelemetry import: its summary, its diagnostics, and a choice
  // of trace when the spans hold several.
  const importStatus = el("p", { class: "masrl-import", "aria-live": "polite" });
  const importList = el("ol", { class: "masrl-import-findings" });
  const pickLabel = el("label", { for: "masrl-trace-pick" }, "Imported trace: ");
  const pick = el("select", { id: "masrl-trace-pick" });
  const pickRow = el("p");
  pickRow.append(pickLabel, pick);
  pickRow.hidden = true;
  root.append(input, controls, importStatus, importList, pickRow, status, findingsList, statsTable);
  let imported = [];

  let ready = false;

  function show(report) {
    findingsList.replaceChildren();
    statsTable.replaceChildren();
    if (report.error) {
      status.textContent = "The validator failed: " + report.error;
      return;
    }
    const verdict = report.valid ? "Valid trace." : "Invalid trace.";
    let summary = `${verdict} ${count(report.errors, "error")}, ${count(report.warnings, "warning")}.`;
    if (report.omitted > 0) {
      summary += ` The first ${report.findings.length - 1} findings are listed; ${report.omitted} more are not.`;
    }
    status.textContent = summary;
    for (const f of report.findings) {
      const li = el("li", { class: "masrl-" + f.severity });
      const where = f.pointer === "" ? "(root)" : f.pointer;
      li.textContent = `line ${f.line}, column ${f.col}: ${f.severity}: ${where}: ${f.message}`;
      findingsList.append(li);
    }
    if (report.stats) {
      renderStats(report.stats);
    }
  }

  function row(label, value) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, label), el("td", {}, String(value)));
    statsTable.append(tr);
  }

  function named(list) {
    if (!list || list.length === 0) {
      return "none";
    }
    return list.map((c) => `${c.name} ${c.count !== undefined ? c.count : c.value}`).join(", ");
  }

  function opt(x) {
    return x === null || x === undefined ? "n/a" : x;
  }

  function renderStats(s) {
    const caption = el("caption", {}, "Reporting checklist (survey Table 14) and graph measures");
    statsTable.append(caption);
    row("trace id", s.trace_id);
    row("task id", s.task_id);
    row("system", s.system || "(not given)");
    row("topology", s.topology || "(not given)");
    row("active roles", named(s.roles));
    row("spawns / despawns", `${s.spawns} / ${s.despawns}`);
    row("team size", `${s.team_size} (${s.sub_agents} spawned sub-agents)`);
    row("events", s.events);
    row("event types", named(s.event_types));
    row("edges", s.edges);
    row("edge types", named(s.edge_types));
    row("messages", s.messages);
    row("tool calls", s.tool_calls);
    row("distinct agents", s.agents);
    row("wall clock (s)", s.costs.wall_clock_s);
    row("tokens", s.costs.tokens);
    row("reward channels", named(s.rewards));
    row("metrics", named(s.metrics));
    const sf = s.safety;
    row("untrusted tool results", `${sf.untrusted_tool_results} (${sf.trust_labelled_tool_results} carry a trust label)`);
    row("untrusted messages", `${sf.untrusted_messages} (${sf.trust_labelled_messages} carry a trust label)`);
    row("safety events", sf.safety_events);
    row("human interventions", sf.human_interventions);
    row("safety-flow edges", sf.safety_flow_edges);
    const g = s.graph;
    row("critical path (events)", g.critical_path);
    row("max parallel width", g.max_width);
    row("spawn-tree depth", g.spawn_depth);
    row("structural parallelism", g.structural_parallelism);
    if (g.cyclic) {
      row("cycles", `yes (${g.events_on_or_after_cycles} events on or after a cycle are left out)`);
    }
    const d = s.derived;
    row("useful-agent utilization", opt(d.useful_agent_utilization));
    row("exact-duplicate messages", opt(d.exact_duplicate_messages));
    row("untrusted reach", opt(d.untrusted_reach));
  }

  // OTLP/JSON requests start with their only member, resourceSpans.
  function isOTLP(text) {
    return /^\s*\{\s*"resourceSpans"\s*:/.test(text.slice(0, 1000));
  }

  function validate(text) {
    if (!ready) {
      status.textContent = "Loading the validator…";
      start().then(
        () => validate(text),
        () => {},
      );
      return;
    }
    if (isOTLP(text)) {
      importOTLP(text);
      return;
    }
    importStatus.textContent = "";
    importList.replaceChildren();
    pickRow.hidden = true;
    imported = [];
    check(text);
  }

  function importOTLP(text) {
    status.textContent = "Importing OpenTelemetry spans…";
    setTimeout(() => {
      let rep;
      try {
        rep = JSON.parse(globalThis.masrlImport(text));
      } catch (e) {
        rep = { error: String(e), traces: [], diagnostics: [] };
      }
      importList.replaceChildren();
      for (const d of rep.diagnostics) {
        const li = el("li", { class: "masrl-" + d.severity });
        const span = d.span_id ? `span ${d.span_id}: ` : "";
        li.textContent = `line ${d.line}${d.col ? ", column " + d.col : ""}: ${d.severity}: ${span}${d.message}`;
        importList.append(li);
      }
      imported = rep.traces;
      let summary = `OpenTelemetry import: ${count(imported.length, "trace")}, ${count(rep.errors || 0, "error")}, ${count(rep.warnings || 0, "warning")}.`;
      if (rep.omitted > 0) {
        summary += ` ${rep.omitted} more traces are not listed; masrl trace import writes them all.`;
      }
      if (rep.error) {
        summary += " The import failed: " + rep.error;
      }
      importStatus.textContent = summary;
      pick.replaceChildren();
      imported.forEach((t, i) => {
        pick.append(el("option", { value: String(i) }, `${t.trace_id} (${t.spans} spans)`));
      });
      pickRow.hidden = imported.length < 2;
      if (imported.length === 0) {
        status.textContent = "No orchestration trace could be imported.";
        findingsList.replaceChildren();
        statsTable.replaceChildren();
        return;
      }
      check(imported[0].json);
    }, 0);
  }

  pick.addEventListener("change", () => {
    const t = imported[Number(pick.value)];
    if (t) {
      check(t.json);
    }
  });

  function check(text) {
    status.textContent = "Validating…";
    // Let the status paint before a large trace blocks the page.
    setTimeout(() => {
      let report;
      try {
        report = JSON.parse(globalThis.masrlValidate(text, { strict: strictBox.checked }));
      } catch (e) {
        report = { error: String(e), findings: [] };
      }
      show(report);
    }, 0);
  }

  function readFile(f) {
    if (!f) {
      return;
    }
    status.textContent = `Reading ${f.name}…`;
    f.text().then(
      (text) => {
        // Very large traces are validated without echoing them in the box.
        input.value = text.length <= 2000000 ? text : "";
        validate(text);
      },
      (e) => {
        status.textContent = `Cannot read ${f.name}: ${e}`;
      },
    );
  }

  button.addEventListener("click", () => validate(input.value));
  file.addEventListener("change", () => readFile(file.files[0]));
  input.addEventListener("dragover", (e) => {
    e.preventDefault();
  });
  input.addEventListener("drop", (e) => {
    e.preventDefault();
    readFile(e.dataTransfer.files[0]);
  });

  async function load() {
    if (typeof Go !== "function") {
      throw new Error("wasm_exec.js is not loaded");
    }
    const go = new Go();
    let result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
    } catch (e) {
      // Servers that do not send application/wasm: instantiate from bytes.
      const resp = await fetch(wasmURL);
      if (!resp.ok) {
        throw new Error(`${wasmURL}: HTTP ${resp.status}`);
      }
      result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
    }
    go.run(result.instance); // never resolves: the module stays alive
    ready = true;
    root.dataset.ready = "true";
  }

  // start loads the module once, at the first sign the reader will use it.
  let loading = null;
  function start() {
    if (!loading) {
      loading = load();
      loading.catch((e) => {
        button.disabled = true;
        button.textContent = "Validator unavailable";
        status.textContent = "Cannot load the validator: " + e.message;
      });
    }
    return loading;
  }
  // The trace viewer (viewer.js) on the same page reads files with the
  // same module: it calls masrlStart and waits for it.
  globalThis.masrlStart = start;
  root.addEventListener("focusin", start);
  root.addEventListener("pointerdown", start);
  input.addEventListener("dragenter", start);

  // The trace viewer's picker ("See a trace"): a file input and a drop
  // zone in #masrl-viewer. The viewer itself (viewer.js, the element's
  // data-script) is loaded only once a file is chosen or dropped, beside
  // the module, so a reader who does not use it does not download it.
  const viewerRoot = document.getElementById("masrl-viewer");
  if (viewerRoot && viewerRoot.dataset.script) {
    const vfile = el("input", { type: "file", id: "masrl-viewer-file", accept: ".json,.jsonl,.ndjson,application/json" });
    const vlabel = el("label", { for: "masrl-viewer-file" }, "Trace file (JSON, JSON Lines or OTLP/JSON): ");
    const zone = el("div", { class: "mv-drop", tabindex: "0", role: "button", "aria-describedby": "masrl-viewer-status" },
      "Drop a trace file here, or press Enter to pick one.");
    const vstatus = el("p", { role: "status", id: "masrl-viewer-status" });
    const stage = el("div", { class: "mv-stage" });
    const form = el("p");
    form.append(vlabel, vfile);
    viewerRoot.append(form, zone, vstatus, stage);
    zone.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        vfile.click();
      }
    });
    zone.addEventListener("click", () => vfile.click());
    zone.addEventListener("dragover", (e) => {
      e.preventDefault();
      zone.classList.add("mv-over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("mv-over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("mv-over");
      view(e.dataTransfer.files[0]);
    });
    vfile.addEventListener("change", () => view(vfile.files[0]));
    // The module is loaded once the reader turns to the viewer.
    viewerRoot.addEventListener("focusin", start);
    viewerRoot.addEventListener("pointerdown", start);

    let viewerLoading = null;
    const loadViewer = () => {
      if (!viewerLoading) {
        viewerLoading = new Promise((resolve, reject) => {
          const s = el("script", { src: viewerRoot.dataset.script });
          s.addEventListener("load", () =>
            globalThis.MasrlViewer ? resolve(globalThis.MasrlViewer) : reject(new Error(`${s.src} defines no viewer`)));
          s.addEventListener("error", () => {
            viewerLoading = null;
            reject(new Error(`cannot load ${s.src}`));
          });
          document.body.append(s);
        });
      }
      return viewerLoading;
    };

    async function view(f) {
      if (!f) return;
      vstatus.textContent = `Loading the viewer and the validator for ${f.name}…`;
      stage.dataset.ready = "false";
      try {
        const [viewer] = await Promise.all([loadViewer(), start()]);
        await viewer.openFile(f, stage, vstatus);
      } catch (e) {
        vstatus.textContent = `Cannot show ${f.name}: ${e.message}`;
        stage.replaceChildren();
        stage.dataset.ready = "true";
      }
    }
  }
})();
