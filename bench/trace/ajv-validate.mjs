// ajv-validate.mjs validates orchestration traces with Ajv (JSON Schema
// draft 2020-12, allErrors) against a schema: the peer of
// `masrl trace validate` in BENCHMARKS.md. As masrl does, it reads a
// .jsonl or .ndjson file as JSON Lines, one trace per line, streamed, and
// any other file as one trace.
//
//   node ajv-validate.mjs SCHEMA FILE...
//
// Exit code 0 when every trace is valid, 1 otherwise, 2 on usage or I/O
// errors. It prints one line per error: file[:line]: instancePath: message.
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error("usage: node ajv-validate.mjs SCHEMA FILE...");
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

// check validates one trace's text; where names it in messages.
function check(where, text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    console.log(`${where}: ${e.message}`);
    code = Math.max(code, 1);
    return;
  }
  if (!validate(doc)) {
    code = Math.max(code, 1);
    for (const err of validate.errors) {
      console.log(`${where}: ${err.instancePath || "(root)"}: ${err.message}`);
    }
  }
}

for (const file of files) {
  try {
    if (/\.(jsonl|ndjson)$/i.test(file)) {
      let n = 0;
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
      for await (const line of lines) {
        n++;
        if (line.trim() !== "") check(`${file}:${n}`, line);
      }
    } else {
      check(file, readFileSync(file === "-" ? 0 : file, "utf8"));
    }
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    code = 2;
  }
}
process.exit(code);
