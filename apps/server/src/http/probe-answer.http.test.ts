// The probe answered before routing (http/probe-answer.ts) against the real server: the same bytes
// as its route's answer, which a query string still reaches.
import { connect } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** One raw GET on its own connection; the whole answer as sent, its Date line taken out. */
async function rawGet(path: string, headers = ""): Promise<string> {
  const url = new URL(t.url);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n${headers}\r\n`);
  await new Promise<void>((resolve, reject) => {
    socket.once("close", () => resolve());
    socket.once("error", reject);
  });
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r\nDate: [^\r]*/, "");
}

describe("GET /healthz answered before routing", () => {
  it("sends byte for byte what its route sends", async () => {
    const id = "x-request-id: probe-7\r\n";
    const probe = await rawGet("/healthz", id);
    const routed = await rawGet("/healthz?via=router", id);
    expect(probe).toBe(routed);
    expect(probe).toBe(
      "HTTP/1.1 200 OK\r\nx-request-id: probe-7\r\nvary: Origin\r\n" +
        "content-type: application/json; charset=utf-8\r\ncontent-length: 15\r\n" +
        'Connection: close\r\n\r\n{"status":"ok"}',
    );
  });

  it("keeps the server's keep-alive and a new id per request", async () => {
    const answer = await fetch(`${t.url}/healthz`);
    expect(answer.headers.get("keep-alive")).toBe("timeout=72");
    const again = await fetch(`${t.url}/healthz`);
    expect(again.headers.get("x-request-id")).not.toBe(answer.headers.get("x-request-id"));
  });

  it("leaves a probe from a browser origin to the route, which grants CORS", async () => {
    const answer = await rawGet("/healthz", "Origin: http://localhost:5173\r\n");
    expect(answer).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    expect(answer).toContain("\r\naccess-control-allow-origin: http://localhost:5173\r\n");
  });
});
