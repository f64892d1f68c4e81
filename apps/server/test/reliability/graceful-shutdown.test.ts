// SIGTERM drains: a request in flight when the signal arrives still gets its answer, an open
// WebSocket is closed by the server with 1001 "going away" (not cut), and the process exits 0.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openSocket } from "../../testing/test-socket.ts";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-sigterm-"));
let server: ChildProcessWithoutNullStreams;
let output = "";
let url = "";

beforeAll(async () => {
  server = spawn(process.execPath, [MAIN, "start", "--port", "0", "--data-dir", dataDir], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", GAUNTLET_LOG_LEVEL: "warn" },
  });
  server.stdout.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!/alt host, at the root\):\s+(http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  url = /alt host, at the root\):\s+(http:\/\/\S+)/.exec(output)?.[1] ?? "";
}, 90_000);

afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("SIGTERM", () => {
  it("answers the request in flight, closes the WebSocket and exits 0", async () => {
    const socket = openSocket(url);
    await socket.opened;
    // A form body sent in two halves, the signal between them.
    const form = "email=nobody%40example.test&password=wrong-password&state=x";
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        `${url}/cli-login`,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(form.length),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.write(form.slice(0, 10));
      setTimeout(() => {
        server.kill("SIGTERM");
        setTimeout(() => req.end(form.slice(10)), 500);
      }, 200);
    });
    const exited = new Promise<number | null>((resolve) =>
      server.on("exit", (code) => resolve(code)),
    );
    const status = await answered;
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    const closed = await socket.closed;
    expect(closed.code).toBe(1001);
    const started = Date.now();
    expect(await exited, output).toBe(0);
    process.stdout.write(
      `graceful shutdown: in-flight request answered ${status}, WebSocket closed with ${closed.code}, exit 0 (${Date.now() - started} ms after the answer)\n`,
    );
  }, 60_000);
});
