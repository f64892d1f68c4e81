// What a hostile coworld commissioner, run by a real runner in its sandbox, may do to the runner
// and the league, and what it cannot:
// - flooding its session does not grow the runner's memory with what the relay has not sent yet
//   (the runner stops reading the commissioner past 32 MiB held; it grew ~100 MiB a second before);
// - nor does leaving the platform's answers unread (the runner ends the session past 32 MiB of
//   them held for the commissioner);
// - a round_display of megabytes is not kept (every rounds listing, public ones too, would carry
//   it; the round's log says why), and a round's episodes stay within the league's
//   max_episodes_per_round as the built-in rounds' do (the rest are rejected to the commissioner).
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, RoundPage } from "@gauntlet/core";

import { commissionerBundle, fixtureCommissioner } from "../../../testing/commissioner-coworld.ts";
import {
  commissionerLeague,
  commissionerServerEnv,
  settledRounds,
} from "../../../testing/commissioner-league.ts";
import { client } from "../../../testing/http.ts";
import { startRunnerProcess, type RunnerProcess } from "../../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;

beforeAll(async () => {
  t = await startTestServer({ env: commissionerServerEnv(15_000) });
  runner = await startRunnerProcess(t, "commissioner-abuse", 2);
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

const output = () => runner?.output().slice(-4000) ?? "";

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
    const before = rss(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 200);
    try {
      const tl = await commissionerLeague(
        t,
        fixtureCommissioner(1, { 1: "flood" }),
        await commissionerBundle(),
      );
      const rounds = await settledRounds(t, tl, 1, 90_000, output);
      // It floods until its session's 15 s are up (a timeout), or until the server holds more of it
      // unread than it keeps for a session (oversized): either way only its round fails.
      expect(rounds.get(1)?.error).toMatch(/commissioner (timeout|oversized)/);
      // Unthrottled, the runner held some 100 MiB more each second (1.9 GB after 8 s); throttled,
      // what it holds is the backlog and the garbage not yet collected, whatever the session's length.
      expect(peak - before).toBeLessThan(768 * 1024 * 1024);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});

describe("a commissioner that reads nothing the platform sends", () => {
  it("does not grow the runner's memory with the platform's answers it left unread", async () => {
    const pid = runner?.pid;
    if (pid === undefined) throw new Error("no runner process");
    const before = rss(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 200);
    try {
      const tl = await commissionerLeague(
        t,
        fixtureCommissioner(1, { 1: "deaf" }),
        await commissionerBundle(),
      );
      const rounds = await settledRounds(t, tl, 1, 90_000, output);
      expect(rounds.get(1)?.error).toMatch(/commissioner (timeout|oversized)/);
      expect(peak - before).toBeLessThan(768 * 1024 * 1024);
    } finally {
      clearInterval(sampler);
    }
  }, 120_000);
});

describe("a commissioner past the league's bounds", () => {
  it("keeps no megabyte round_display and no more episodes than max_episodes_per_round", async () => {
    const tl = await commissionerLeague(
      t,
      fixtureCommissioner(2, { 1: "big_display", 2: "many_episodes" }),
      await commissionerBundle(),
      { max_episodes_per_round: 3 },
    );
    const rounds = await settledRounds(t, tl, 2, 120_000, output);

    // Round 1: completed, its 12 MiB display not kept and not in anyone's listing.
    expect(rounds.get(1)?.status).toBe("completed");
    expect(rounds.get(1)?.commissioner_log).toMatch(/round_display/);
    const listing = await client(t.url).get<RoundPage>(
      `/v2/rounds?league_id=${tl.league.id}&limit=100`,
    );
    expect(listing.text.length).toBeLessThan(1024 * 1024);

    // Round 2: ten episodes asked for, three queued.
    expect(rounds.get(2)?.status).toBe("completed");
    const episodes = await client(t.url, tl.commissioner.token).get<{
      entries: EpisodeRequest[];
    }>(`/v2/episode-requests?round_id=${rounds.get(2)?.id ?? ""}`);
    expect(episodes.body.entries).toHaveLength(3);
  }, 180_000);
});
