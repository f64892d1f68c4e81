// Rounds over real HTTP, shared by the rounds suites: two servers (the scheduler ticking every
// 30 ms, and off), drained after each test, and the calls the suites make of them.
import { afterAll, afterEach, beforeAll, expect } from "vitest";

import type { RoundDetail, RoundPage, TriggerRoundResponse } from "@gauntlet/core";

import { client } from "./http.ts";
import { startTestServer, type TestServer } from "./start-server.ts";
import {
  byStrength,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "./test-league.ts";

/**
 * The suite's two servers, started before its tests and closed after them; each test drains the
 * queue it leaves, so the next one's scripted runner leases only its own jobs.
 */
export function useRoundServers(): { auto: () => TestServer; manual: () => TestServer } {
  let auto: TestServer | undefined;
  let manual: TestServer | undefined;
  beforeAll(async () => {
    auto = await startTestServer({ env: { GAUNTLET_SCHEDULER_TICK_MS: "30" } });
    manual = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  });
  afterAll(async () => {
    await auto?.close();
    await manual?.close();
  });
  afterEach(async () => {
    for (const t of [auto, manual]) {
      if (!t) continue;
      const runner = await scriptedRunner(t, "drain");
      while ((await runner.runQueued((names) => names.map(() => 0))).length > 0);
    }
  });
  const started = (t: TestServer | undefined) => {
    if (!t) throw new Error("the servers start in beforeAll; use them inside a test");
    return t;
  };
  return { auto: () => started(auto), manual: () => started(manual) };
}

export async function rounds(t: TestServer, query: string): Promise<RoundPage> {
  const res = await client(t.url).get<RoundPage>(`/v2/rounds?${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

export async function round(t: TestServer, id: string, token?: string): Promise<RoundDetail> {
  return (await client(t.url, token).get<RoundDetail>(`/v2/rounds/${id}`)).body;
}

export async function trigger(
  t: TestServer,
  tl: TestLeague,
  body: Record<string, unknown> = {},
): Promise<TriggerRoundResponse> {
  const res = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    body,
  );
  expect(res.status).toBe(200);
  return res.body;
}

export async function pause(t: TestServer, tl: TestLeague, paused: boolean): Promise<void> {
  expect(
    (
      await client(t.url, tl.commissioner.token).post(`/v2/leagues/${tl.league.id}/rounds-paused`, {
        paused,
      })
    ).status,
  ).toBe(200);
}

/** Runs every queued job of one round (a scripted runner leases everything queued). */
export async function playRound(
  t: TestServer,
  runner: ScriptedRunner,
  roundId: string,
  strength: Record<string, number>,
): Promise<RoundDetail> {
  await runner.runQueued(byStrength(strength));
  return eventually(`round ${roundId} to settle`, async () => {
    const r = await round(t, roundId);
    return r.status === "completed" || r.status === "failed" ? r : null;
  });
}

export const STRENGTH = { Ada: 3, Bo: 2, Cy: 1, Dee: 0 };
