// The web view at `/` (and at the data host's prefix): a static shell whose script reads the
// public API as an anonymous caller, so it shows exactly what anyone may see (the access rules
// of each read decide) and every name reaches the page as text, never as markup.
import { escapeHtml } from "../http/html.ts";
import { PAGE_CONTENT_SECURITY_POLICY } from "../http/page-headers.ts";

/** The pages' policy, plus this origin's script and its reads of this origin's API. */
export const HOME_CONTENT_SECURITY_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; script-src 'self'; connect-src 'self'`;

/**
 * The page for an API base path (`""` at an alt host's root, the prefix on the data host): its
 * links and its script's reads start with it, so the page works under either.
 */
export function homePage(basePath: string): string {
  const b = escapeHtml(basePath);
  return `<!doctype html>
<html lang="en" data-base="${b}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gauntlet</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;max-width:68rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.4rem 1.2rem;border-bottom:1px solid #ddd;padding-bottom:.6rem}
header h1{margin:0;font-size:1.4rem}nav a{margin-right:1rem}#status{color:#666;font-size:.85rem;margin-left:auto}
h2{margin:1.6rem 0 .2rem}h3{margin:1.2rem 0 .4rem}.muted{color:#666}.error{color:#b00020}
.waiting{margin:.1rem 0 .5rem;color:#7a4f00}
.division{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:.4rem 1.5rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid #eee;padding:.25rem .4rem;text-align:left;vertical-align:top}
th{font-weight:600;color:#444}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:ui-monospace,monospace;background:#f4f4f4;padding:.05rem .25rem;border-radius:3px}
</style>
</head><body>
<header><h1>Gauntlet</h1>
<nav><a href="${b}/docs">API reference</a><a href="${b}/openapi.json">OpenAPI</a><a href="${b}/docs/rate-limits">Budgets</a><a href="${b}/cli-login" id="sign-in">Sign in</a></nav>
<span id="status" role="status">loading…</span></header>
<main id="leagues"><p class="muted">Loading the leagues…</p></main>
<noscript><p>This page reads the API with a small script. Without it, the leagues are at <a href="${b}/v2/leagues"><code>${b}/v2/leagues</code></a> and each division's standings at <code>${b}/v2/divisions/{id}/leaderboard</code>.</p></noscript>
<script src="${b}/home.js"></script>
</body></html>`;
}

/** The API base path a request came in under: the prefix on the data host, else the root. */
export function basePathOf(originalUrl: string, url: string, prefix: string): string {
  return url !== originalUrl && originalUrl.startsWith(prefix) ? prefix : "";
}
