// A hostile coworld commissioner, run by a real runner in its sandbox, writing message after
// message (each well within 16 MiB) faster than the relay carries them to the server: the runner
// stops reading it while its backlog is full, so the runner's memory (shared with every other
// episode it runs) does not follow the flood; the round fails at its lifetime as any hung one.
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RoundPage } from "@gauntlet/core";

import {
  commissionerBundle,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
} from "../../../testing/commissioner-coworld.ts";
import { client } from "../../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../../testing/test-league.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER_TICK_MS: "50",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
      GAUNTLET_COMMISSIONER_POLL_MS: "50",
      GAUNTLET_COMMISSIONER_LIFETIME_MS: "8000",
      GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "15000",
      GAUNTLET_COMMISSIONER_STARTUP_MS: "30000",
    },
  });
  runner = await startRunnerProcess(t, "commissioner-flood", 2);
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

/** The resident memory of a process, in bytes (Linux). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024;
}

describe("a commissioner that floods its session", () => {
  it("does not grow the runner's memory with what the relay has not sent yet", async () => {
    const pid = runner?.pid;
    if (pid === undefined) throw new Error("no runner process");
    const tl = await createTestLeague(t, {
      bundle: await commissionerBundle(),
      manifest: { commissioner: fixtureCommissioner(1, { 1: "flood" }) },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
    });
    const owner = client(t.url, tl.commissioner.token);
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
    for (const [name, baseline] of [
      ["Ada", "greedy"],
      ["Zed", "random"],
    ] as const)
      await tl.submit(await tl.addPlayer(name, { baseline }));
    const before = rss(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 200);
    await owner.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });
    try {
      const settled = await eventually(
        "the flooding round settled",
        async () => {
          const page = await client(t.url).get<RoundPage>(
            `/v2/rounds?league_id=${tl.league.id}&limit=10`,
          );
          return page.body.entries.find((r) => r.status === "failed") ?? null;
        },
        90_000,
      );
      expect(settled.error).toMatch(/commissioner timeout/);
      // Unthrottled, the runner held some 100 MiB more each second: near a gigabyte by the end.
      expect(peak - before).toBeLessThan(400 * 1024 * 1024);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});
