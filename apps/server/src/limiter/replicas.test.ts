// Two server processes on one PostgreSQL and one Redis draw one
// user's requests from one budget, whichever replica answers.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const MAIN = join(import.meta.dirname, "../cli/main.ts");

describe.runIf(DATABASE_URL && REDIS_URL)(
  "two server processes on one PostgreSQL and one Redis",
  () => {
    const schema = `replicas_${randomBytes(5).toString("hex")}`;
    const dirs: string[] = [];
    const servers: ChildProcessWithoutNullStreams[] = [];
    const urls: string[] = [];
    const env = () => ({
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: DATABASE_URL ?? "",
      REDIS_URL: REDIS_URL ?? "",
      GAUNTLET_DATABASE_SCHEMA: schema,
      GAUNTLET_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
      // An hour bucket of 360 requests gains one credit every 10 s: counts stay exact in a test.
      GAUNTLET_USER_CAPACITIES: JSON.stringify({ requestsPerHour: 360 }),
      GAUNTLET_LOG_LEVEL: "warn",
    });

    function start(): Promise<string> {
      const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-replica-"));
      dirs.push(dataDir);
      const child = spawn(
        process.execPath,
        [MAIN, "start", "--port", "0", "--no-runner", "--data-dir", dataDir],
        { env: env() },
      );
      servers.push(child);
      let output = "";
      return new Promise((resolve, reject) => {
        // Patience for a busy machine; the deadline only turns a hang into a message.
        const timer = setTimeout(
          () => reject(new Error(`replica did not start:\n${output}`)),
          120_000,
        );
        const onData = (d: Buffer) => {
          output += d.toString();
          const url = /alt host, at the root\):\s+(http:\/\/\S+)/.exec(output)?.[1];
          if (url) {
            clearTimeout(timer);
            resolve(url);
          }
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        child.on("exit", (code) => reject(new Error(`replica exited with ${code}:\n${output}`)));
      });
    }

    function run(args: string[]): Promise<string> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN, ...args], { env: env() });
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
        child.stdin.end("a-long-enough-password\n");
      });
    }

    beforeAll(async () => {
      // One replica first: it migrates and creates the first admin; the second finds both done.
      urls.push(await start());
      urls.push(await start());
    });

    afterAll(async () => {
      await Promise.all(
        servers
          .filter((s) => s.exitCode === null)
          .map((s) => {
            const exited = new Promise((resolve) => s.once("exit", resolve));
            s.kill("SIGTERM");
            return exited;
          }),
      );
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });

    it("draws one budget whichever replica answers, across two tokens", async () => {
      const email = `replica-${schema}@example.test`;
      await run(["users", "add", "--email", email]);
      const tokenA = (await run(["tokens", "create", "--email", email])).trim();
      const tokenB = (await run(["tokens", "create", "--email", email])).trim();
      const [a, b] = urls;
      if (!a || !b) throw new Error("two replicas expected");
      const remaining: number[] = [];
      for (const [url, token] of [
        [a, tokenA],
        [b, tokenB],
        [a, tokenB],
        [b, tokenA],
        [a, tokenA],
        [b, tokenB],
      ] as const) {
        const res = await client(url, token).get("/whoami");
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-outcome")).toBe("allowed");
        remaining.push(Number(res.headers.get("x-ratelimit-requests-hour-remaining")));
      }
      // Each request, on either replica, takes one credit from the same hour bucket of 360.
      expect(remaining).toEqual([359, 358, 357, 356, 355, 354]);
    });
  },
);
