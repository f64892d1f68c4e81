// A real HTTP server for unit tests: each request is recorded and answered by the test's
// script, so retries, pacing, timeouts and error bodies run over real sockets.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string. */
  json?: unknown;
  text?: string;
  /** Wait before answering (for timeouts). */
  delayMs?: number;
  /** Drop the connection without answering. */
  hangUp?: boolean;
}

export type Script = (req: RecordedRequest, index: number) => Reply;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  setScript(script: Script): void;
  close(): Promise<void>;
}

export async function startScriptedServer(
  script: Script = () => ({ json: {} }),
): Promise<ScriptedServer> {
  let current = script;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      requests.push(recorded);
      const reply = current(recorded, requests.length - 1);
      const answer = () => {
        if (reply.hangUp) {
          req.socket.destroy();
          return;
        }
        const text = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));
        const headers: Record<string, string> = {
          ...(reply.text === undefined && reply.json !== undefined
            ? { "content-type": "application/json" }
            : {}),
          ...reply.headers,
        };
        res.writeHead(reply.status ?? 200, headers);
        res.end(text);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// The League fixture every test shares lives with the other test helpers.
export { sampleLeague } from "@gauntlet/server/fixtures";

/** The headers of an enforced shared-budget rejection. */
export function budgetHeaders(
  outcome: "allowed" | "rejected",
  retryAfter = 0,
): Record<string, string> {
  const h: Record<string, string> = {
    "x-complexity": "1",
    "x-ratelimit-mode": "enforced",
    "x-ratelimit-outcome": outcome,
    "x-ratelimit-retry-after": String(retryAfter),
  };
  for (const p of ["requests-minute", "requests-hour", "complexity-minute", "complexity-hour"]) {
    h[`x-ratelimit-${p}-limit`] = "100";
    h[`x-ratelimit-${p}-remaining`] = outcome === "rejected" ? "0" : "42";
    h[`x-ratelimit-${p}-reset`] = "1767225600";
  }
  if (outcome === "rejected") h["retry-after"] = String(retryAfter);
  return h;
}

export const sharedBudgetBody = (seconds: number) => ({
  detail: {
    type: "api_rate_limit_exceeded",
    message: "over budget",
    retry_after_seconds: seconds,
    documentation_url: "https://x/docs/rate-limits",
  },
});
