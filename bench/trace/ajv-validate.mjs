// ajv-validate.mjs validates orchestration traces with Ajv (JSON Schema
// draft 2020-12, allErrors) against a schema, the peer of
// `masrl trace validate` in bench/trace/RESULTS.md.
//
//   node ajv-validate.mjs SCHEMA TRACE...
//
// Exit code 0 when every trace is valid, 1 otherwise, 2 on usage or I/O
// errors. It prints one line per error: file: instancePath: message.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error("usage: node ajv-validate.mjs SCHEMA TRACE...");
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
for (const file of files) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    code = 2;
    continue;
  }
  if (!validate(doc)) {
    code = Math.max(code, 1);
    for (const err of validate.errors) {
      console.log(`${file}: ${err.instancePath || "(root)"}: ${err.message}`);
    }
  }
}
process.exit(code);
