// Rounds over real HTTP with a scripted runner: the scheduler seats champions and settles rounds,
// trigger-round holds one round per division, and too few players is said, not played.
import { beforeAll, describe, expect, it } from "vitest";

import type { LeaderboardRow, Pool } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import {
  pause,
  playRound,
  round,
  rounds,
  STRENGTH,
  trigger,
  useRoundServers,
} from "../../testing/rounds.ts";
import { type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
} from "../../testing/test-league.ts";
import { startRound } from "./round-start.ts";

const servers = useRoundServers();
let auto: TestServer;
let manual: TestServer;
beforeAll(() => {
  auto = servers.auto();
  manual = servers.manual();
});

describe("the scheduler", () => {
  it("starts a round for the champions, round robin, and settles it into results and standings; the next round follows", async () => {
    const tl = await createTestLeague(auto);
    const runner = await scriptedRunner(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    await pause(auto, tl, false);
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");

    const first = await eventually(
      "the first round",
      async () => (await rounds(auto, `league_id=${tl.league.id}`)).entries[0],
    );
    expect(first).toMatchObject({
      round_number: 1,
      status: "running",
      division: { id: division.id },
      league_id: tl.league.id,
      execution_backend: "process",
    });
    expect(first.round_display).toMatchObject({ seating: "round_robin", episodes: 3, players: 3 });
    const pools = await client(auto.url).get<Pool[]>(`/v2/pools?round_id=${first.id}`);
    expect(pools.body).toHaveLength(1);
    expect(pools.body[0]?.members.map((m) => m.player_name).sort()).toEqual(["Ada", "Bo", "Cy"]);
    const pool = await client(auto.url).get<Pool>(`/v2/pools/${pools.body[0]?.id ?? ""}`);
    expect(pool.body.episode_count).toBe(3);

    const settled = await playRound(auto, runner, first.id, STRENGTH);
    expect(settled.status).toBe("completed");
    expect(
      settled.results.map((r) => [r.player?.name, r.rank, r.result_metadata.episodes]),
    ).toEqual([
      ["Ada", 1, 2],
      ["Bo", 2, 2],
      ["Cy", 3, 2],
    ]);
    expect(settled.results[0]?.policy_version).not.toBeNull();

    const rows = await tl.leaderboard(division.id);
    expect(rows?.map((r) => r.player_name)).toEqual(["Ada", "Bo", "Cy"]);
    expect(rows?.map((r) => [r.rounds_played, r.episodes_played])).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(rows?.[0]?.score).toBeGreaterThan(1500);
    expect(rows?.every((r) => r.recent_rounds.length === 0)).toBe(true);
    const recent = await client(auto.url).get<LeaderboardRow[]>(
      `/v2/divisions/${division.id}/leaderboard?include_recent_rounds=true`,
    );
    expect(recent.body[0]?.recent_rounds[0]).toMatchObject({
      id: first.id,
      round_number: 1,
      rank: 1,
      status: "completed",
    });

    const second = await eventually(
      "the next round",
      async () => (await rounds(auto, `league_id=${tl.league.id}&status=running`)).entries[0],
    );
    expect(second.round_number).toBe(2);
    const page = await rounds(auto, `division_id=${division.id}&limit=1`);
    expect(page).toMatchObject({ total_count: 2, limit: 1, offset: 0 });
    await pause(auto, tl, true);
  });

  it("counts a result once when its completion is delivered twice", async () => {
    const tl = await createTestLeague(auto);
    const runner = await scriptedRunner(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(auto, tl);
    const roundId = started.rounds[0]?.id ?? "";
    const [job] = await runner.lease(1);
    if (!job) throw new Error("no job");
    const scores = byStrength(STRENGTH)(
      job.players.map((p) => p.display_name),
      job,
    );
    expect(await runner.complete(job, scores)).toBe(200);
    expect(await runner.complete(job, scores)).toBe(200);
    const settled = await eventually("the round to settle", async () => {
      const r = await round(auto, roundId);
      return r.status === "completed" ? r : null;
    });
    expect(settled.results.map((r) => r.result_metadata.episodes)).toEqual([1, 1]);
    expect(await runner.complete(job, scores)).toBe(200);
    const rows = await tl.leaderboard(tl.divisions[0]?.id ?? "");
    expect(rows?.map((r) => [r.player_name, r.rounds_played, r.episodes_played])).toEqual([
      ["Ada", 1, 1],
      ["Bo", 1, 1],
    ]);
    // One Elo episode at K 32 between equals: exactly ±16 on the online rating.
    expect(rows?.map((r) => r.form)).toEqual([1516, 1484]);
  });

  it("starts no round in a paused league, and resumes when unpaused", async () => {
    const tl = await createTestLeague(auto);
    await pause(auto, tl, true);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    await auto.server.leaguePlay.scheduler.tick();
    expect((await rounds(auto, `league_id=${tl.league.id}`)).total_count).toBe(0);
    await pause(auto, tl, false);
    await eventually(
      "a round after unpausing",
      async () => (await rounds(auto, `league_id=${tl.league.id}`)).total_count === 1,
    );
    await pause(auto, tl, true);
  });
});

describe("trigger-round and the database's one round per division", () => {
  it("starts a round now, reports a division that cannot, and never runs two rounds in one division", async () => {
    const tl = await createTestLeague(manual, {
      divisions: [
        { name: "Top", level: 1 },
        { name: "Bottom", level: 2 },
      ],
    });
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    const [top, bottom] = tl.divisions;
    if (!top || !bottom) throw new Error("divisions");
    const first = await trigger(manual, tl);
    expect(first.rounds.map((r) => r.division.id)).toEqual([bottom.id]);
    expect(first.skipped).toEqual([
      expect.objectContaining({ division_id: top.id, reason: "below_min_players" }),
    ]);

    const again = await trigger(manual, tl, { division_id: bottom.id });
    expect(again.rounds).toEqual([]);
    expect(again.skipped[0]?.reason).toBe("round_running");

    // Racing starts (as replicas would): the running round stays the only one.
    const { db, bus } = manual.server.leaguePlay;
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => startRound(db, bus, bottom.id, { force: true })),
    );
    expect(raced.every((o) => o.kind === "skipped")).toBe(true);
    const active = await db
      .selectFrom("rounds")
      .select("id")
      .where("division_id", "=", bottom.id)
      .where("active", "=", 1)
      .execute();
    expect(active).toHaveLength(1);
    const duplicate = db
      .insertInto("rounds")
      .values({
        ...(await db
          .selectFrom("rounds")
          .selectAll()
          .where("division_id", "=", bottom.id)
          .executeTakeFirstOrThrow()),
        id: "round_dup",
        round_number: 99,
      })
      .execute();
    await expect(duplicate).rejects.toThrow();

    const stranger = await manual.newUser();
    const refused = await client(manual.url, stranger.token).post(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    expect(refused.status).toBe(403);
  });

  it("races of a fresh division start exactly one round", async () => {
    const tl = await createTestLeague(manual);
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    const { db, bus } = manual.server.leaguePlay;
    const division = tl.divisions[0]?.id ?? "";
    const raced = await Promise.all(
      Array.from({ length: 4 }, () => startRound(db, bus, division, { force: true })),
    );
    expect(raced.filter((o) => o.kind === "started")).toHaveLength(1);
  });
});

describe("too few players", () => {
  it("multiple_seats seats the lone champion twice; filler_policy fills with seed policies that are never ranked; do_not_run skips", async () => {
    const runner = await scriptedRunner(manual);
    const multiple = await createTestLeague(manual, {
      settings: { too_few_players: "multiple_seats", min_players: 1 },
    });
    await multiple.submit(await multiple.addPlayer("Ada"));
    const m = await trigger(manual, multiple);
    const [job] = await runner.lease(5);
    expect(job?.players.map((p) => p.display_name)).toEqual(["Ada", "Ada"]);
    if (job) await runner.complete(job, [2, 1]);
    const mDone = await eventually("the multiple_seats round", async () =>
      (await round(manual, m.rounds[0]?.id ?? "")).status === "completed" ? true : null,
    );
    expect(mDone).toBe(true);

    const filler = await createTestLeague(manual, {
      settings: { too_few_players: "filler_policy", min_players: 1 },
    });
    const ada = await filler.addPlayer("Ada");
    const seed = await filler.addPlayer("Seed");
    await filler.submit(ada);
    const seeds = await client(manual.url, filler.commissioner.token).post<{
      policy_version_ids: string[];
      policy_versions: { id: string }[];
    }>(`/v2/leagues/${filler.league.id}/seed-policies`, {
      policy_version_ids: [seed.policyVersionId],
    });
    expect(seeds.body.policy_versions.map((v) => v.id)).toEqual([seed.policyVersionId]);
    expect(
      (
        await client(manual.url).get<{ policy_version_ids: string[] }>(
          `/v2/leagues/${filler.league.id}/seed-policies`,
        )
      ).body.policy_version_ids,
    ).toEqual([seed.policyVersionId]);
    const stranger = await manual.newUser();
    const foreign = await filler.addPlayer("Foreign", { owner: stranger });
    const refused = await client(manual.url, filler.commissioner.token).post<{
      detail: { loc: (string | number)[] }[];
    }>(`/v2/leagues/${filler.league.id}/seed-policies`, {
      policy_version_ids: [seed.policyVersionId, foreign.policyVersionId],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(["body", "policy_version_ids", 1]);
    const f = await trigger(manual, filler);
    const pools = await client(manual.url).get<Pool[]>(
      `/v2/pools?round_id=${f.rounds[0]?.id ?? ""}`,
    );
    expect(pools.body[0]?.members.map((x) => x.role).sort()).toEqual(["champion", "filler"]);
    const settled = await playRound(manual, runner, f.rounds[0]?.id ?? "", { Ada: 1 });
    expect(settled.results.map((r) => r.player?.name)).toEqual(["Ada"]);
    expect(
      (await filler.leaderboard(filler.divisions[0]?.id ?? ""))?.map((r) => r.player_name),
    ).toEqual(["Ada"]);

    const none = await createTestLeague(manual, {
      settings: { too_few_players: "do_not_run", min_players: 1 },
    });
    await none.submit(await none.addPlayer("Ada"));
    const skipped = await trigger(manual, none);
    expect(skipped.skipped[0]?.reason).toBe("too_few_players");
  });
});
