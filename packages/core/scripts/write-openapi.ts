// Writes the OpenAPI document the contract generates, as the server serves it at an alt
// host's root, to the file named on the command line (`lint:openapi` lints that file).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { buildOpenApi, operations } from "../src/index.ts";

const target = process.argv[2];
if (!target) {
  process.stderr.write("usage: node scripts/write-openapi.ts <file>\n");
  process.exit(2);
}
const file = resolve(target);
mkdirSync(dirname(file), { recursive: true });
const document = buildOpenApi(operations, {
  servers: [{ url: "http://127.0.0.1:8787", description: "alt host" }],
});
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
