// Rounds over real HTTP with a scripted runner: how seating and ranking rules seat and rank, and
// how promotion and relegation move players between divisions.
import { beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, LeaguePolicyMembership, Pool } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { playRound, STRENGTH, trigger, useRoundServers } from "../../testing/rounds.ts";
import { type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, scriptedRunner } from "../../testing/test-league.ts";

const servers = useRoundServers();
let manual: TestServer;
beforeAll(() => {
  manual = servers.manual();
});

describe("seating and rankings", () => {
  it("swiss_neighbor seats neighbours in the standings after the first round", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual, { settings: { seating: "swiss_neighbor" } });
    for (const name of ["Ada", "Bo", "Cy", "Dee"]) await tl.submit(await tl.addPlayer(name));
    const first = await trigger(manual, tl);
    await playRound(manual, runner, first.rounds[0]?.id ?? "", STRENGTH);
    const second = await trigger(manual, tl);
    const pools = await client(manual.url).get<Pool[]>(
      `/v2/pools?round_id=${second.rounds[0]?.id ?? ""}`,
    );
    // Round 2's windows start at 0: two tables of neighbours, everyone at one of them.
    expect(pools.body).toHaveLength(2);
    // Seated by form (the online rating), which the published fit need not order alike.
    const rating = new Map(
      (await tl.leaderboard(tl.divisions[0]?.id ?? ""))?.map((r) => [
        r.player_id,
        r.form ?? r.score,
      ]),
    );
    const ratings = pools.body.map((p) =>
      p.members.map((m) => rating.get(m.player_id ?? "") ?? Number.NaN),
    );
    expect(ratings.flat()).toHaveLength(4);
    const [a = [], b = []] = ratings;
    const [high, low] = Math.max(...a) >= Math.max(...b) ? [a, b] : [b, a];
    expect(Math.min(...high)).toBeGreaterThanOrEqual(Math.max(...low));
  });

  it("ranks by score (mean) and by OpenSkill (mu − 3·sigma)", async () => {
    const runner = await scriptedRunner(manual);
    const scored = await createTestLeague(manual, {
      settings: { ranking: "score", score: { aggregation: "mean" } },
    });
    for (const name of ["Ada", "Bo"]) await scored.submit(await scored.addPlayer(name));
    const r1 = await trigger(manual, scored);
    await playRound(manual, runner, r1.rounds[0]?.id ?? "", { Ada: 7, Bo: 4 });
    expect(
      (await scored.leaderboard(scored.divisions[0]?.id ?? ""))?.map((r) => [
        r.player_name,
        r.score,
      ]),
    ).toEqual([
      ["Ada", 7],
      ["Bo", 4],
    ]);

    const skill = await createTestLeague(manual, { settings: { ranking: "openskill" } });
    for (const name of ["Ada", "Bo"]) await skill.submit(await skill.addPlayer(name));
    const r2 = await trigger(manual, skill);
    await playRound(manual, runner, r2.rounds[0]?.id ?? "", STRENGTH);
    const views = await client(manual.url).get<{
      views: {
        columns: { key: string }[];
        rows: { subject_name: string; values: Record<string, number> }[];
      }[];
    }>(`/v2/divisions/${skill.divisions[0]?.id ?? ""}/leaderboards`);
    const view = views.body.views[0];
    expect(view?.columns.map((c) => c.key)).toContain("sigma");
    expect(view?.rows.map((r) => r.subject_name)).toEqual(["Ada", "Bo"]);
    const top = view?.rows[0]?.values;
    expect(top?.score).toBeCloseTo((top?.mu ?? 0) - 3 * (top?.sigma ?? 0), 9);
  });
});

describe("promotion and relegation", () => {
  it("moves the weakest of the upper division down and the best of the lower one up", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual, {
      divisions: [
        { name: "Premier", level: 1 },
        { name: "Challenger", level: 2 },
      ],
      settings: { promotion: { promote: 1, relegate: 1, every_rounds: 1 } },
    });
    const [premier, challenger] = tl.divisions;
    if (!premier || !challenger) throw new Error("divisions");
    const players = Object.fromEntries(
      await Promise.all(
        ["Ada", "Bo", "Cy", "Dee"].map(async (n) => [n, await tl.addPlayer(n)] as const),
      ),
    );
    const seed = async (name: string, division: string) => {
      const p = players[name];
      if (!p) throw new Error(name);
      await tl.submit(p, { preferences: { division_id: division } });
    };
    await seed("Ada", premier.id);
    await seed("Cy", premier.id);
    await seed("Bo", challenger.id);
    await seed("Dee", challenger.id);
    const lower = await trigger(manual, tl, { division_id: challenger.id });
    await playRound(manual, runner, lower.rounds[0]?.id ?? "", STRENGTH);
    const upper = await trigger(manual, tl, { division_id: premier.id });
    await playRound(manual, runner, upper.rounds[0]?.id ?? "", STRENGTH);

    // Winners and losers tie on Elo across the two divisions, so compare as sets.
    expect((await tl.leaderboard(premier.id))?.map((r) => r.player_name).sort()).toEqual([
      "Ada",
      "Bo",
    ]);
    expect((await tl.leaderboard(challenger.id))?.map((r) => r.player_name).sort()).toEqual([
      "Cy",
      "Dee",
    ]);
    const cy = await client(manual.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?player_id=${players.Cy?.id ?? ""}`,
    );
    expect(cy.body.map((m) => m.division.id)).toEqual([challenger.id]);
    const moves = await client(manual.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    const kinds = moves.body
      .filter((e) => e.event_type === "player_promoted" || e.event_type === "player_relegated")
      .map((e) => [e.event_type, e.player?.name]);
    expect(kinds.sort()).toEqual([
      ["player_promoted", "Bo"],
      ["player_relegated", "Cy"],
    ]);
  });
});
