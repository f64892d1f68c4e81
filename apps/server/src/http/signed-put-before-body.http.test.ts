// A signed upload address is judged before its body is read (upload-handlers.ts): these PUTs
// take no token and bodies of up to 256 MiB, and an attacker's twelve PUTs to made-up addresses
// were read whole into memory first (3 GB, /healthz at a second) before the 403.
import { randomUUID } from "node:crypto";
import { connect } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

/** The status line answered to a PUT that announces `length` bytes and sends none of them;
 * "no answer" when none came within `waitMs` (the server waiting for the body). */
function statusOfBodilessPut(base: string, path: string, length: number, waitMs = 5000) {
  const { hostname, port } = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve("no answer");
    }, waitMs);
    socket.on("error", reject);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(chunk.toString("latin1").split("\r\n")[0] ?? "");
    });
    socket.write(
      `PUT ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Length: ${length}\r\n\r\n`,
    );
  });
}

describe("signed upload addresses", () => {
  for (const path of [
    // Well-formed ids of no upload: the address is judged, not only its form.
    `/stats/episodes/bulk_upload/files/${randomUUID()}`,
    `/stats/policies/submit/files/${randomUUID()}`,
    `/v2/content-uploads/${randomUUID()}`,
  ])
    it(`refuses a PUT to a made-up address before its body: ${path.replace(/[0-9a-f-]{36}$/, "{id}")}`, async () => {
      const status = await statusOfBodilessPut(
        t.url,
        `${path}?expires=${Math.floor(Date.now() / 1000) + 600}&signature=forged`,
        200 * 1024 * 1024,
      );
      expect(status).toBe("HTTP/1.1 403 Forbidden");
    });
});
