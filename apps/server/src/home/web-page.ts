// The web view's pages (`/web/leagues/{id}`, `/web/divisions/{id}`, …): one HTML shell that
// names the page and its subject; the bundled script (`/web.js`) reads the API as the visitor
// and draws the page. Names reach a page as text, never as markup (the script sets textContent).
import { escapeHtml } from "../http/html.ts";
import { PAGE_CONTENT_SECURITY_POLICY } from "../http/page-headers.ts";

/**
 * The pages' policy: this origin's script, reads of this origin's API and its live events, and
 * frames of this origin only (an episode's replay viewer, itself sandboxed by its own headers).
 */
export const WEB_CONTENT_SECURITY_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; script-src 'self'; connect-src 'self'; frame-src 'self'`;

export type WebPageKind =
  "home" | "league" | "division" | "round" | "episode" | "player" | "policy-version";

/** The look every page shares: light and dark by the system setting, readable from 375 px up. */
export const WEB_STYLES = `
:root{color-scheme:light dark;--fg:#1b1b1b;--muted:#666;--line:#e4e4e4;--bg:#fff;--card:#f6f6f6;--accent:#0b62c4;--bar:#0b62c4;--warn:#7a4f00;--err:#b00020;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#9a9a9a;--line:#333;--bg:#121212;--card:#1d1d1d;--accent:#6cb2ff;--bar:#6cb2ff;--warn:#e0b35a;--err:#ff7a8a;--ok:#5fd17a}}
body{font:15px/1.45 system-ui,sans-serif;max-width:72rem;margin:1rem auto;padding:0 .8rem;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible,[tabindex]:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.4rem 1.2rem;border-bottom:1px solid var(--line);padding-bottom:.6rem}
header h1{margin:0;font-size:1.3rem}header h1 a{color:inherit;text-decoration:none}nav a{margin-right:1rem}
#status{color:var(--muted);font-size:.85rem;margin-left:auto}#status.live{color:var(--ok)}#status.error{color:var(--err)}
.crumbs{font-size:.85rem;color:var(--muted);margin:.6rem 0 0}.crumbs a{margin-right:.3rem}
h2{margin:1rem 0 .2rem;overflow-wrap:anywhere}h3{margin:1.2rem 0 .4rem}.muted{color:var(--muted)}.error{color:var(--err)}
.waiting{margin:.1rem 0 .5rem;color:var(--warn)}
.division{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:.4rem 1.5rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
th{font-weight:600;color:var(--muted)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td{overflow-wrap:break-word}td.num,th.num,.interval{white-space:nowrap}
code{font-family:ui-monospace,monospace;background:var(--card);padding:.05rem .25rem;border-radius:3px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.6rem 0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
.interval{position:relative;height:.7rem;min-width:6rem;background:var(--card);border-radius:3px}
.interval span{position:absolute;top:.15rem;height:.4rem;background:var(--bar);opacity:.55;border-radius:2px}
.interval i{position:absolute;top:0;width:2px;height:.7rem;background:var(--fg)}
.settled{color:var(--ok);font-weight:600}
.heat td.cell{text-align:center;font-variant-numeric:tabular-nums;min-width:2.6rem}
.chart{margin:.4rem 0;min-height:1rem}
iframe.replay{width:100%;aspect-ratio:4/3;max-height:80vh;border:1px solid var(--line);border-radius:4px;background:var(--card)}
.u-legend{font-size:.8rem}
button,select{font:inherit;color:inherit;background:var(--card);border:1px solid var(--line);border-radius:4px;padding:.2rem .6rem}
select{max-width:100%}.account{font-size:.9rem}
form.submit{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.4rem 0}
pre.log{max-height:20rem;overflow:auto;background:var(--card);padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem;border-radius:4px}
`;

/** The shell of one page: `kind` and `subject` (the id in its address) tell the script what to draw. */
export function webPage(
  basePath: string,
  kind: WebPageKind,
  subject: string,
  chartStyles: string,
): string {
  const b = escapeHtml(basePath);
  return `<!doctype html>
<html lang="en" data-base="${b}" data-page="${kind}" data-subject="${escapeHtml(subject)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gauntlet</title>
<style>${chartStyles}${WEB_STYLES}</style>
</head><body>
<header><h1><a href="${b}/">Gauntlet</a></h1>
<nav><a href="${b}/docs">API reference</a><a href="${b}/web/sign-in" id="sign-in">Sign in</a></nav>
<span id="status" role="status" aria-live="polite">loading…</span></header>
<p class="crumbs" id="crumbs"></p>
<main id="page"><p class="muted">Loading…</p></main>
<noscript><p>This page reads the API with a small script. Without it, the same data is at <a href="${b}/docs">the API</a>.</p></noscript>
<script src="${b}/web.js"></script>
</body></html>`;
}
