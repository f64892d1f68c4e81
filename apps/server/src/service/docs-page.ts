// GET /docs: the interactive reference. The Scalar UI script comes from the
// @scalar/fastify-api-reference package (read once through an in-memory request, so it is
// served from this server, never a CDN) and reads `openapi.json` relative to the base path.
import Fastify from "fastify";
import scalar from "@scalar/fastify-api-reference";

let script: Promise<string> | undefined;

export function docsScript(): Promise<string> {
  script ??= (async () => {
    const app = Fastify({ logger: false });
    await app.register(scalar, { routePrefix: "/reference", configuration: { url: "/openapi.json" } });
    const res = await app.inject({ method: "GET", url: "/reference/js/scalar.js" });
    await app.close();
    if (res.statusCode !== 200) throw new Error(`the reference UI script is unavailable (${res.statusCode})`);
    return res.body;
  })();
  return script;
}

export function docsPage(): string {
  // Relative URLs keep the page working under the data host's prefix and at an alt host's root.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gauntlet API reference</title></head>
<body>
<script id="api-reference" data-url="openapi.json"></script>
<script src="docs/scalar.js"></script>
<noscript>The interactive reference needs JavaScript. The machine-readable description is at <a href="openapi.json">openapi.json</a>.</noscript>
</body></html>`;
}
