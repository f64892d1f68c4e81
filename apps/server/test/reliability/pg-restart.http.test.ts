// Fault (long, `pnpm reliability` sets GAUNTLET_RELIABILITY_LONG=1): PostgreSQL — a cluster of
// the test's own, started with pg_ctl in a temporary directory — stopped and started again under
// load. During the outage requests fail with a clear 503 and Retry-After; afterwards the service
// answers again by itself, and nothing written before the outage is lost.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bestEffort } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { eventually } from "../../testing/test-league.ts";
import { createTestStore } from "../../testing/test-store.ts";
import { freePort } from "./redis-server.ts";

const long = process.env.GAUNTLET_RELIABILITY_LONG === "1";
const version = long ? readdirSync("/usr/lib/postgresql").sort().pop() : undefined;
const bin = (name: string) => join("/usr/lib/postgresql", version ?? "", "bin", name);

describe.skipIf(!long)("PostgreSQL stopped and started under load", () => {
  const dir = mkdtempSync(join(tmpdir(), "gauntlet-pg-"));
  const data = join(dir, "data");
  let port = 0;
  let t: TestServer;
  // initdb refuses to run as root: the cluster belongs to the postgres user.
  const asPostgres = (cmd: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", cmd, ...args], { stdio: "pipe" });
  const pgCtl = (...args: string[]) =>
    asPostgres(bin("pg_ctl"), ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", ...args]);
  beforeAll(async () => {
    execFileSync("chown", ["postgres", dir]);
    port = await freePort();
    asPostgres(bin("initdb"), ["-D", data, "-A", "trust", "-U", "postgres"]);
    pgCtl("-o", `-p ${port} -k ${dir} -h 127.0.0.1`, "start");
    t = await startTestServer({
      testStore: await createTestStore(`postgres://postgres@127.0.0.1:${port}/postgres`),
      env: { GAUNTLET_RATE_LIMIT_MODE: "off", GAUNTLET_SCHEDULER: "off" },
    });
  }, 180_000);
  afterAll(async () => {
    if (t) await bestEffort(t.close());
    if (t) await bestEffort(t.testStore.cleanup());
    try {
      pgCtl("-m", "immediate", "stop");
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After while it is down and recovers by itself", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const player = await api.post<{ id: string }>("/players", { name: "Before" });
    expect(player.status).toBe(201);
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        // No answer at all is counted by its reason, and shown with the statuses.
        const res = await api
          .get("/players")
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        const key = res instanceof Error ? `failed: ${res.message}` : String(res.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (!(res instanceof Error) && res.status !== 200) {
          if (
            res.status !== 503 ||
            res.headers.get("retry-after") === null ||
            !res.text.includes("service_unavailable")
          )
            problems.push(`${res.status} ${res.text.slice(0, 200)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await eventually(
      "requests before the outage",
      async () => (statuses["200"] ?? 0) >= 10,
      60_000,
    );
    pgCtl("-m", "fast", "stop");
    await eventually(
      "503s during the outage",
      async () => (statuses["503"] ?? 0) >= 10,
      60_000,
    ).catch((error: unknown) => {
      throw new Error(
        `${String(error)}; statuses ${JSON.stringify(statuses)}; ${problems.slice(0, 3).join(" | ")}`,
      );
    });
    pgCtl("-o", `-p ${port} -k ${dir} -h 127.0.0.1`, "start");
    const before = statuses["200"] ?? 0;
    await eventually("recovery", async () => (statuses["200"] ?? 0) >= before + 10, 120_000);
    stop = true;
    await load;
    process.stdout.write(`postgres restart: by status ${JSON.stringify(statuses)}\n`);
    expect(problems).toEqual([]);
    const listed = await api.get<{ id: string }[]>("/players");
    expect(listed.body.map((p) => p.id)).toContain(player.body.id);
  }, 300_000);
});
