// A settled league still promotes: when both divisions of a boundary are settled, the promotion
// rule runs once on their standings, the divisions it changes play until they settle, and then
// the league goes quiet. Over real HTTP, the scheduler ticked by the test so that "quiet" is a
// tick that finds nothing to do rather than a wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, LeaguePolicyMembership } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  scriptedRunner,
  type Scorer,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

let t: TestServer;
let runner: ScriptedRunner;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await scriptedRunner(t);
});
afterAll(async () => {
  await t?.close();
});

/** Far more rounds than a settled pair of small divisions needs; reaching it means endless play. */
const ROUND_BOUND = 200;

/**
 * Runs what is queued and ticks the scheduler until two ticks in a row find nothing to settle,
 * start or move; answers how many rounds started. Fails past ROUND_BOUND rounds.
 */
async function playUntilQuiet(scorer: Scorer): Promise<number> {
  let rounds = 0;
  let idle = 0;
  while (idle < 2) {
    const jobs = await runner.runQueued(scorer);
    const report = await t.server.leaguePlay.scheduler.tick();
    rounds += report.started.length;
    const busy =
      jobs.length + report.started.length + report.settled.length + report.moved.length > 0;
    idle = busy ? 0 : idle + 1;
    if (rounds > ROUND_BOUND) throw new Error(`still playing after ${rounds} rounds`);
  }
  return rounds;
}

async function events(tl: TestLeague, type: string): Promise<CompetitionEvent[]> {
  const res = await client(t.url).get<CompetitionEvent[]>(
    `/v2/competition-events?league_id=${tl.league.id}&event_type=${type}&limit=500`,
  );
  expect(res.status).toBe(200);
  return res.body;
}

/** Champions by division name, names sorted. */
async function lineup(tl: TestLeague): Promise<Record<string, string[]>> {
  const res = await client(t.url).get<LeaguePolicyMembership[]>(
    `/v2/league-policy-memberships?league_id=${tl.league.id}&champions_only=true`,
  );
  const out: Record<string, string[]> = {};
  for (const m of res.body) (out[m.division.name] ??= []).push(m.player?.name ?? "?");
  for (const names of Object.values(out)) names.sort();
  return out;
}

/** Both divisions stand quiet, each with every rank settled (their newest notice, no round since). */
async function quietSettled(tl: TestLeague): Promise<boolean> {
  for (const division of tl.divisions) {
    const res = await client(t.url).get<CompetitionEvent[]>(
      `/v2/competition-events?division_id=${division.id}&limit=500`,
    );
    const last = res.body.find(
      (e) => e.event_type === "round_started" || e.event_type === "division_quiet",
    );
    if (last?.event_type !== "division_quiet" || last.payload.reason !== "settled") return false;
    expect(last.headline).toContain("quiet: every rank settled");
  }
  return true;
}

async function twoDivisionLeague(everyRounds: number): Promise<TestLeague> {
  return createTestLeague(t, {
    settings: {
      seating: "adaptive",
      promotion: { promote: 1, relegate: 1, every_rounds: everyRounds },
    },
    divisions: [
      { name: "Premier", level: 1 },
      { name: "Challenger", level: 2 },
    ],
  });
}

async function enter(tl: TestLeague, division: number, names: string[]): Promise<TestPlayer[]> {
  const players: TestPlayer[] = [];
  for (const name of names) {
    const player = await tl.addPlayer(name);
    await tl.submit(player, { preferences: { division_id: tl.divisions[division]?.id } });
    players.push(player);
  }
  return players;
}

describe("a settled boundary", () => {
  it("promotes a newcomer who leads the lower division once both are settled, then goes quiet", async () => {
    // The round count (every 1,000 Premier rounds) never comes round here: only settling can move anyone.
    const tl = await twoDivisionLeague(1000);
    const scorer = byStrength({ Ace: 5, Bea: 4, Cal: 2, Dee: 1, Star: 10 });
    await enter(tl, 0, ["Ace", "Bea"]);
    await enter(tl, 1, ["Cal", "Dee"]);
    await playUntilQuiet(scorer);
    // Settled once: Cal (Challenger's best) and Bea (Premier's last) traded places, and no more.
    expect(await lineup(tl)).toEqual({ Premier: ["Ace", "Cal"], Challenger: ["Bea", "Dee"] });
    expect(await quietSettled(tl)).toBe(true);

    // The incident: a newcomer leads the lower division of a settled league.
    await enter(tl, 1, ["Star"]);
    const rounds = await playUntilQuiet(scorer);
    const promoted = await events(tl, "player_promoted");
    expect(promoted[0]).toMatchObject({
      player: { name: "Star" },
      division: { name: "Premier" },
      payload: { rule: "settled" },
    });
    expect((await lineup(tl)).Premier).toContain("Star");
    expect(await quietSettled(tl)).toBe(true);
    expect(rounds).toBeLessThan(ROUND_BOUND);
  });

  it("leaves a demo-like league quiet with no promotion pending", async () => {
    const tl = await twoDivisionLeague(3);
    const scorer = byStrength({ A1: 6, A2: 3, A3: 1, B1: 5, B2: 4, B3: 2 });
    await enter(tl, 0, ["A1", "A2", "A3"]);
    await enter(tl, 1, ["B1", "B2", "B3"]);
    const rounds = await playUntilQuiet(scorer);
    expect(rounds).toBeGreaterThan(0);
    expect(await quietSettled(tl)).toBe(true);
    // Nothing entered after the last move: no move was left waiting when the league went quiet.
    const [lastEntry] = await events(tl, "submission_placed");
    const moves = [
      ...(await events(tl, "player_promoted")),
      ...(await events(tl, "player_relegated")),
    ];
    expect(moves.some((m) => m.seq > (lastEntry?.seq ?? 0))).toBe(true);
    // Quiet means quiet: more ticks start nothing.
    expect(await playUntilQuiet(scorer)).toBe(0);
  });
});
