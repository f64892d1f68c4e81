// GET /docs: the interactive reference. The Scalar UI script comes from the
// @scalar/fastify-api-reference package (read once through an in-memory request, so it is
// served from this server, never a CDN) and reads `openapi.json` relative to the base path.
// A self-hosted server makes no outside calls: the reference is configured without the
// vendor's fonts, proxy, AI agent, MCP generator and hosted toolbar, and the page's
// Content-Security-Policy lets the browser talk to this origin only.
import scalar from "@scalar/fastify-api-reference";
import Fastify from "fastify";

import { escapeHtml } from "../http/html.ts";

let script: Promise<string> | undefined;

export function docsScript(): Promise<string> {
  script ??= (async () => {
    const app = Fastify({ logger: false });
    await app.register(scalar, {
      routePrefix: "/reference",
      configuration: { url: "/openapi.json" },
    });
    const res = await app.inject({ method: "GET", url: "/reference/js/scalar.js" });
    await app.close();
    if (res.statusCode !== 200)
      throw new Error(`the reference UI script is unavailable (${res.statusCode})`);
    return res.body;
  })();
  return script;
}

/** Scalar's options (its `data-configuration`): everything that would call the vendor is off. */
export const DOCS_CONFIGURATION = {
  // System fonts instead of the vendor's font host.
  withDefaultFonts: false,
  // "Ask AI" (the vendor's agent) and "Generate MCP" (the vendor's MCP service).
  agent: { disabled: true },
  mcp: { disabled: true },
  // The hosted toolbar ("Developer Tools", "Configure", "Share", "Deploy").
  showDeveloperTools: "never",
  showToolbar: "never",
  // "Open API Client" opens the vendor's hosted client.
  hideClientButton: true,
  telemetry: false,
  // Requests from "Test Request" go straight to this server (same origin), never through a proxy.
  proxyUrl: "",
  documentDownloadType: "json",
} as const;

/** The browser may load and call this origin only (Scalar injects its styles inline). */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

export function docsPage(): string {
  // Relative URLs keep the page working under the data host's prefix and at an alt host's root.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gauntlet API reference</title></head>
<body>
<script id="api-reference" data-url="openapi.json" data-configuration="${escapeHtml(JSON.stringify(DOCS_CONFIGURATION))}"></script>
<script src="docs/scalar.js"></script>
<noscript>The interactive reference needs JavaScript. The machine-readable description is at <a href="openapi.json">openapi.json</a>.</noscript>
</body></html>`;
}
