// smoke.cjs runs validator.js in Node against a stub DOM and the built
// WebAssembly module, and checks that a valid trace is accepted, an invalid
// one rejected with its findings listed, and innerHTML never used.
//
//   node trace/validator/smoke.cjs BIN_DIR VALID_TRACE INVALID_TRACE [OTLP_FILE]
//
// (make wasm-smoke). BIN_DIR holds masrl.wasm and wasm_exec.js. With
// OTLP_FILE (OpenTelemetry spans, OTLP/JSON lines) it also checks that the
// spans are imported and the imported trace validated.
"use strict";
const fs = require("fs");
const path = require("path");
const [binDir, validPath, invalidPath, otlpPath] = process.argv.slice(2);
globalThis.fs = fs;
globalThis.require = require;
require(path.resolve(binDir, "wasm_exec.js"));

class El {
  constructor(tag) {
    this.tag = tag;
    this.children = [];
    this.attrs = {};
    this.listeners = {};
    this.text = "";
    this.value = "";
    this.checked = false;
    this.disabled = false;
    this.dataset = {};
  }
  setAttribute(k, v) {
    this.attrs[k] = v;
    if (k === "disabled") this.disabled = true;
  }
  append(...cs) {
    for (const c of cs) this.children.push(typeof c === "string" ? { textContent: c } : c);
  }
  replaceChildren() {
    this.children = [];
  }
  addEventListener(ev, f) {
    this.listeners[ev] = f;
  }
  set textContent(t) {
    this.text = String(t);
    this.children = [];
  }
  get textContent() {
    return this.text + this.children.map((c) => c.textContent).join("");
  }
  set innerHTML(_) {
    throw new Error("validator.js used innerHTML");
  }
}

const root = new El("div");
globalThis.document = {
  getElementById: (id) => (id === "masrl-validator" ? root : null),
  createElement: (t) => new El(t),
  currentScript: { src: "http://site.test/traces/validator.js" },
  baseURI: "http://site.test/traces/",
};
let fetched = 0;
globalThis.fetch = async (url) => {
  fetched++;
  if (String(url) !== "http://site.test/traces/masrl.wasm") throw new Error(`fetched ${url}`);
  const b = fs.readFileSync(path.resolve(binDir, "masrl.wasm"));
  return { ok: true, arrayBuffer: async () => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) };
};
WebAssembly.instantiateStreaming = async () => {
  throw new Error("no streaming in the stub");
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function fail(msg) {
  console.error("validator.js smoke test: " + msg);
  process.exit(1);
}

async function main() {
  require(path.resolve(__dirname, "validator.js"));
  const byClass = (c) => root.children.find((e) => e.attrs && e.attrs.class === c);
  const input = root.children.find((e) => e.tag === "textarea");
  const controls = root.children[1];
  const status = root.children.find((e) => e.attrs && e.attrs.role === "status" && !e.attrs.class);
  const list = byClass("masrl-findings");
  const table = byClass("masrl-stats");
  const button = controls.children.find((c) => c.tag === "button");
  // The module loads only when the reader turns to the validator.
  await sleep(50);
  if (fetched !== 0) fail("the module was fetched before the reader turned to the validator");
  root.listeners.focusin();
  for (let i = 0; i < 200 && !root.dataset.ready; i++) await sleep(50);
  if (!root.dataset.ready || button.disabled) fail("the module did not load: " + status.textContent);
  const run = async (file) => {
    input.value = fs.readFileSync(file, "utf8");
    status.textContent = "";
    button.listeners.click();
    for (let i = 0; i < 100 && !/trace\./.test(status.textContent); i++) await sleep(20);
    return { status: status.textContent, findings: list.children.length, rows: table.children.length };
  };
  const ok = await run(validPath);
  if (!ok.status.startsWith("Valid trace.") || ok.findings !== 0 || ok.rows < 20) fail(`valid trace: ${JSON.stringify(ok)}`);
  const bad = await run(invalidPath);
  if (!bad.status.startsWith("Invalid trace.") || bad.findings < 1) fail(`invalid trace: ${JSON.stringify(bad)}`);
  let otlp = "";
  if (otlpPath) {
    const importStatus = byClass("masrl-import");
    const o = await run(otlpPath);
    if (!/^OpenTelemetry import: [1-9][0-9]* traces, 0 errors/.test(importStatus.textContent) || !o.status.startsWith("Valid trace.") || o.rows < 20) {
      fail(`OTLP import: ${importStatus.textContent} / ${JSON.stringify(o)}`);
    }
    otlp = `; OTLP: ${importStatus.textContent}`;
  }
  console.log(`validator.js smoke test: ok (${ok.rows} stats rows; ${bad.findings} findings on the invalid trace${otlp})`);
  process.exit(0);
}
main().catch((e) => fail(e.stack || String(e)));
