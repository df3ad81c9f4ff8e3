// ajv-validate-lines.mjs validates a JSON Lines file of orchestration
// traces, one trace per line, with Ajv (JSON Schema draft 2020-12,
// allErrors): the peer of `masrl trace validate BATCH.jsonl` in
// BENCHMARKS.md. Lines are streamed, as masrl streams them.
//
//   node ajv-validate-lines.mjs SCHEMA FILE.jsonl
//
// Exit code 0 when every trace is valid, 1 otherwise, 2 on usage or I/O
// errors. It prints one line per error: file:line: instancePath: message.
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, file] = process.argv.slice(2);
if (!schemaPath || !file) {
  console.error("usage: node ajv-validate-lines.mjs SCHEMA FILE.jsonl");
  process.exit(2);
}
let validate;
try {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
} catch (e) {
  console.error(`${schemaPath}: ${e.message}`);
  process.exit(2);
}
let code = 0;
let n = 0;
const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
for await (const line of lines) {
  n++;
  if (line.trim() === "") continue;
  let doc;
  try {
    doc = JSON.parse(line);
  } catch (e) {
    console.log(`${file}:${n}: ${e.message}`);
    code = Math.max(code, 1);
    continue;
  }
  if (!validate(doc)) {
    code = Math.max(code, 1);
    for (const err of validate.errors) {
      console.log(`${file}:${n}: ${err.instancePath || "(root)"}: ${err.message}`);
    }
  }
}
process.exit(code);
