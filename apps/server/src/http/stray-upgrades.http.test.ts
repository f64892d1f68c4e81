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

/** Sends a WebSocket upgrade request for `path`; resolves with every byte read once the server closes. */
async function upgradeTo(path: string): Promise<string> {
  const url = new URL(t.url);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("close", () => resolve());
    socket.once("error", reject);
  });
  return Buffer.concat(chunks).toString("utf8");
}

describe("an upgrade request to a route that does not upgrade", () => {
  it("gets the route's HTTP answer, then the server closes the connection", async () => {
    const answer = await upgradeTo("/healthz");
    expect(answer.startsWith("HTTP/1.1 200 ")).toBe(true);
    expect(answer.toLowerCase()).toContain("\r\nx-request-id: ");
    expect(answer.endsWith('{"status":"ok"}')).toBe(true);
  });

  it("gets a 404 for a path with no route, then the server closes the connection", async () => {
    const answer = await upgradeTo("/no-such-route");
    expect(answer.startsWith("HTTP/1.1 404 ")).toBe(true);
  });
});
