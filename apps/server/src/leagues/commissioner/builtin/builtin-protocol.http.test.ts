// The built-in commissioners speak the protocol a coworld's commissioner speaks: every message
// of a built-in round's session, the platform's and the built-in's answers, validates against our
// contract's schemas and, where a fetched Metta-AI/coworld and python3 with pydantic 2 are here,
// against the hosted service's own models (protocol.py read from the mirror at test time). What
// the built-in asked for is what the round plays: its request ids and tags are on the episodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  CommissionerToPlatform,
  CoworldManifest,
  newId,
  PlatformToCommissioner,
  type EpisodeRequest,
  type Pool,
} from "@gauntlet/core";

import { client } from "../../../../testing/http.ts";
import { startTestServer, type TestServer } from "../../../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../../../testing/test-league.ts";
import { checkWithUpstream, upstreamMissing } from "../../../../testing/upstream-protocol.ts";
import { gameCoworld } from "../../../games/games.ts";
import { ladderOrDefault } from "../../ladder.ts";
import { startRound } from "../../round-start.ts";
import { toWire } from "../wire-ids.ts";
import { askBuiltin, askBuiltinSchedule, type BuiltinTap } from "./builtin-round.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

/** A round of the league's first division, started as the scheduler starts one, with its session tapped. */
async function tappedRound(tl: TestLeague) {
  const heard: { direction: "sent" | "received"; message: object }[] = [];
  const tap: BuiltinTap = (direction, message) => heard.push({ direction, message });
  const { db } = t.server.store;
  const outcome = await startRound(db, t.server.leaguePlay.bus, tl.divisions[0]?.id ?? "", {
    force: true,
    tap,
  });
  return { outcome, heard };
}

/** The built-in asked for a round of the league's first division with no champions seated. */
async function askedDirectly(tl: TestLeague) {
  const heard: { direction: "sent" | "received"; message: object }[] = [];
  const { db } = t.server.store;
  const league = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", tl.league.id)
    .executeTakeFirstOrThrow();
  const coworld = await gameCoworld(db, league.game_id);
  const manifest = CoworldManifest.parse(JSON.parse(coworld?.manifest ?? "{}"));
  const schedule = await askBuiltin(db, {
    league,
    roundId: newId("round"),
    roundNumber: 1,
    manifest,
    input: {
      entrants: [],
      settings: ladderOrDefault(league),
      variantId: manifest.variants[0]?.id ?? "",
    },
    tap: (direction, message) => heard.push({ direction, message }),
  });
  return { schedule, heard };
}

/** The built-in's scheduling phase asked for the league's first division, its last round 30 minutes ago. */
async function scheduledDirectly(tl: TestLeague, force: boolean, minutesAgo = 30) {
  const heard: { direction: "sent" | "received"; message: object }[] = [];
  const { db } = t.server.store;
  const league = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", tl.league.id)
    .executeTakeFirstOrThrow();
  const now = new Date();
  const divisionId = tl.divisions[0]?.id ?? "";
  const spec = await askBuiltinSchedule(
    db,
    {
      league,
      input: {
        entrants: [],
        settings: ladderOrDefault(league),
        variantId: "v",
        pace: {
          divisionId,
          roundNumber: 2,
          lastStartedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
          now,
          force,
        },
      },
      tap: (direction, message) => heard.push({ direction, message }),
    },
    divisionId,
  );
  return { spec, heard };
}

async function leagueOf(settings: Record<string, unknown>, players: string[]): Promise<TestLeague> {
  const tl = await createTestLeague(t, { settings });
  for (const name of players) await tl.submit(await tl.addPlayer(name));
  return tl;
}

describe("the built-in commissioners over the protocol", () => {
  it.each([
    ["round_robin", { seating: "round_robin" }],
    ["swiss_neighbor", { seating: "swiss_neighbor" }],
    ["adaptive", { seating: "adaptive" }],
    [
      "multiple_seats",
      { seating: "round_robin", players_per_episode: 4, too_few_players: "multiple_seats" },
    ],
  ])(
    "%s: round_start is answered by schedule_episodes, and the round plays what it asked for",
    async (seating, settings) => {
      const tl = await leagueOf(settings, ["Ada", "Bo", "Cy"]);
      const { outcome, heard } = await tappedRound(tl);
      expect(outcome.kind).toBe("started");
      if (outcome.kind !== "started") return;

      const types = heard.map((h) => `${h.direction}:${(h.message as { type: string }).type}`);
      expect(types).toEqual([
        "sent:schedule_rounds_request",
        "received:schedule_rounds_response",
        "sent:round_start",
        "received:schedule_episodes",
        "sent:episodes_accepted",
      ]);
      for (const h of heard) {
        const schema = h.direction === "sent" ? PlatformToCommissioner : CommissionerToPlatform;
        expect(schema.safeParse(h.message).success, JSON.stringify(h.message)).toBe(true);
      }
      const spec = (heard[1]?.message as { rounds: { division_id: string }[] }).rounds;
      expect(spec.map((r) => r.division_id)).toEqual([toWire(tl.divisions[0]?.id ?? "")]);
      const start = heard[2]?.message as { round_id: string; memberships: unknown[] };
      expect(outcome.round.id.endsWith(start.round_id)).toBe(true);
      expect(start.memberships).toHaveLength(3);

      const asked = (
        heard[3]?.message as { episodes: { request_id: string; tags: Record<string, string> }[] }
      ).episodes;
      const episodes = await client(t.url, t.adminToken).get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${outcome.round.id}&limit=100`,
      );
      expect(episodes.status).toBe(200);
      const played = episodes.body.entries
        .map((e) => e.tags)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      expect(played).toEqual(
        asked.map((a) => a.tags).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      );
      expect(asked.every((a) => a.tags.seating === seating)).toBe(true);
      expect(heard[4]?.message).toEqual({
        type: "episodes_accepted",
        request_ids: asked.map((a) => a.request_id),
      });
    },
  );

  it("carries no membership's preferences: the built-in reads none", async () => {
    const tl = await createTestLeague(t);
    for (const name of ["Ada", "Bo"])
      await tl.submit(await tl.addPlayer(name), { preferences: { style: "x".repeat(8000) } });
    const { outcome, heard } = await tappedRound(tl);
    expect(outcome.kind).toBe("started");
    const memberships = heard.flatMap((h) => {
      const m = h.message as { memberships?: object[]; active_memberships?: object[] };
      return [...(m.memberships ?? []), ...(m.active_memberships ?? [])];
    });
    expect(memberships).toHaveLength(4);
    expect(
      memberships.every((m) => JSON.stringify((m as { preferences: object }).preferences) === "{}"),
    ).toBe(true);
  });

  it("a filler seat earns nothing even when the filler is the entrant's own version", async () => {
    const tl = await createTestLeague(t, {
      settings: { too_few_players: "filler_policy", min_players: 1 },
    });
    const ada = await tl.addPlayer("Ada");
    await tl.submit(ada);
    const seeded = await client(t.url, tl.commissioner.token).post(
      `/v2/leagues/${tl.league.id}/seed-policies`,
      { policy_version_ids: [ada.policyVersionId] },
    );
    expect(seeded.status).toBe(200);
    const { outcome, heard } = await tappedRound(tl);
    expect(outcome.kind).toBe("started");
    if (outcome.kind !== "started") return;
    expect((heard[3]?.message as { episodes: { tags: object }[] }).episodes[0]?.tags).toMatchObject(
      { filler_seats: expect.stringMatching(/^\d+$/) as unknown },
    );
    const pools = await client(t.url).get<Pool[]>(`/v2/pools?round_id=${outcome.round.id}`);
    expect(pools.body[0]?.members.map((m) => [m.role, m.player_id]).sort()).toEqual([
      ["champion", ada.id],
      ["filler", null],
    ]);
  });

  it("an entrant whose version is also a league filler is seated as the entrant when no filler is needed", async () => {
    const tl = await createTestLeague(t);
    const ada = await tl.addPlayer("Ada");
    const bo = await tl.addPlayer("Bo");
    await tl.submit(ada);
    await tl.submit(bo);
    const seeded = await client(t.url, tl.commissioner.token).post(
      `/v2/leagues/${tl.league.id}/seed-policies`,
      { policy_version_ids: [ada.policyVersionId, bo.policyVersionId] },
    );
    expect(seeded.status).toBe(200);
    const { outcome, heard } = await tappedRound(tl);
    expect(outcome.kind).toBe("started");
    if (outcome.kind !== "started") return;
    expect(
      (heard[3]?.message as { episodes: { tags: Record<string, string> }[] }).episodes.every(
        (e) => e.tags.filler_seats === undefined,
      ),
    ).toBe(true);
    const pools = await client(t.url).get<Pool[]>(`/v2/pools?round_id=${outcome.round.id}`);
    expect(pools.body[0]?.members.map((m) => [m.role, m.player_id]).sort()).toEqual(
      [
        ["champion", ada.id],
        ["champion", bo.id],
      ].sort(),
    );
  });

  it("a round the ladder cannot run is a round_complete that schedules nothing, and says why", async () => {
    const tl = await leagueOf({ min_players: 3 }, ["Ada", "Bo"]);
    // The scheduler stops such a division at the ladder's own plan before it takes the lock;
    // asked anyway, the commissioner says the same in the protocol.
    expect(await tappedRound(tl)).toMatchObject({
      outcome: { kind: "skipped", reason: "below_min_players" },
      heard: [],
    });
    const { schedule, heard } = await askedDirectly(tl);
    expect(schedule).toMatchObject({ kind: "skip", reason: "below_min_players" });
    expect(heard.map((h) => (h.message as { type: string }).type)).toEqual([
      "round_start",
      "round_complete",
    ]);
    expect(heard[1]?.message).toMatchObject({
      results: [],
      round_display: { skipped: { reason: "below_min_players" } },
    });
  });

  it("schedules a round when round_interval_minutes has passed, or when the owner triggers one", async () => {
    const tl = await leagueOf({ round_interval_minutes: 60 }, ["Ada", "Bo"]);
    const early = await scheduledDirectly(tl, false);
    expect(early.spec).toBeNull();
    expect(early.heard.map((h) => (h.message as { type: string }).type)).toEqual([
      "schedule_rounds_request",
      "schedule_rounds_response",
    ]);
    expect((await scheduledDirectly(tl, false, 61)).spec).toMatchObject({
      division_id: toWire(tl.divisions[0]?.id ?? ""),
      idempotency_key: `${toWire(tl.divisions[0]?.id ?? "")}:round-2`,
    });
    expect((await scheduledDirectly(tl, true)).spec).not.toBeNull();
    // Through the scheduler's door: a round started, the next one waits for the interval.
    expect((await tappedRound(tl)).outcome.kind).toBe("started");
  });

  it.skipIf(upstreamMissing !== null)(
    "every message validates against upstream's models",
    async () => {
      const messages: object[] = [];
      for (const settings of [
        { seating: "round_robin" },
        { seating: "swiss_neighbor" },
        { seating: "adaptive" },
      ]) {
        const tl = await leagueOf(settings, ["Ada", "Bo", "Cy"]);
        messages.push(...(await tappedRound(tl)).heard.map((h) => h.message));
      }
      const skipped = await leagueOf({ min_players: 5 }, ["Ada", "Bo"]);
      messages.push(...(await askedDirectly(skipped)).heard.map((h) => h.message));
      messages.push(...(await scheduledDirectly(skipped, true)).heard.map((h) => h.message));
      const report = checkWithUpstream(messages);
      expect(report.refused).toEqual([]);
      for (const type of [
        "schedule_rounds_request",
        "schedule_rounds_response",
        "round_start",
        "schedule_episodes",
        "episodes_accepted",
        "round_complete",
      ])
        expect(report.checked[type] ?? 0, type).toBeGreaterThan(0);
    },
  );
});
