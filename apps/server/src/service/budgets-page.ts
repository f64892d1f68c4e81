// The page every shared-budget 429 links to (docs/api.md documentation_url).
import { escapeHtml, page } from "../http/html.ts";

export interface CapacityRow {
  identity: string;
  requestsPerMinute: number;
  requestsPerHour: number;
  complexityPerMinute: number;
  complexityPerHour: number;
}

export function budgetsPage(rows: readonly CapacityRow[], mode: string): string {
  const table = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.identity)}</td><td>${r.requestsPerMinute}</td><td>${r.requestsPerHour}</td><td>${r.complexityPerMinute}</td><td>${r.complexityPerHour}</td></tr>`,
    )
    .join("");
  return page(
    "Gauntlet shared budgets",
    `<h1>Shared budgets</h1>
<p>Every request to the API draws on its caller's shared budgets: a <em>request</em> budget (1 credit a request)
and a <em>complexity</em> budget (the operation's complexity, shown in <code>X-Complexity</code> and in each
operation's <code>x-rate-limit</code> entry of <a href="../openapi.json">openapi.json</a>). Each has a minute and an hour bucket.
Credits refill continuously at capacity ÷ period. A request must fit all four buckets; a rejected request costs nothing.</p>
<p>This server's mode: <strong>${escapeHtml(mode)}</strong>.</p>
<table><tr><th>identity</th><th>requests/min</th><th>requests/hour</th><th>complexity/min</th><th>complexity/hour</th></tr>${table}</table>
<p>Your user token, your players and your reporter runs share one budget; a machine identity has its own.
A request without a token draws on the budget of its client address (an IPv6 client's /64): the socket's
peer, or the client named by <code>X-Forwarded-For</code> when the peer is one of the server's trusted proxies.
Health probes (<code>/healthz</code>, <code>/readyz</code>), the pages and the documents are not budgeted; the
web view at <code>/</code> spends a small part of an address's budget.</p>
<h2>When you get a 429</h2>
<p>The body's <code>detail.type</code> is <code>api_rate_limit_exceeded</code>. Wait at least <code>Retry-After</code> seconds,
add some jitter, and retry within a bounded deadline and number of attempts, with the same body and
<code>Idempotency-Key</code>. Never retry a 200 because of a budget header. The Gauntlet SDK and CLI do this for you.</p>
<h2>Headers</h2>
<p><code>X-RateLimit-Mode</code>, <code>X-RateLimit-Outcome</code>, <code>X-RateLimit-Retry-After</code>, and for each of
<code>X-RateLimit-Requests-Minute</code>, <code>-Requests-Hour</code>, <code>-Complexity-Minute</code>, <code>-Complexity-Hour</code>:
<code>-Limit</code>, <code>-Remaining</code> and <code>-Reset</code> (a Unix second when the bucket would be full again).</p>`,
  );
}
