// Tournaments over real HTTP with a scripted runner (SQLite, or PostgreSQL when DATABASE_URL is
// set): the states and their 409s, a whole bracket with byes played wave by wave, a void match
// that the higher seed wins, a round robin and a double elimination.
import { beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, Tournament } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { type TestServer } from "../../testing/start-server.ts";
import { byStrength, type ScriptedRunner, type TestLeague } from "../../testing/test-league.ts";
import { useTournamentFixture, type ErrorBody } from "../../testing/tournaments.ts";

const fixture = useTournamentFixture();
const { api, versions, create, tournamentEvents, act, playOut } = fixture;
let t: TestServer;
let tl: TestLeague;
let runner: ScriptedRunner;
beforeAll(() => {
  ({ t, tl, runner } = fixture.current());
});

describe("tournament states", () => {
  it("moves draft → locked → running → completed, each action refused (409) in the wrong state", async () => {
    const created = await create({
      name: "Spring Cup",
      format: "single_elimination",
      policy_version_ids: versions(4),
      episodes_per_match: 2,
    });
    expect(created.status, created.text).toBe(201);
    const cup = created.body;
    expect(cup).toMatchObject({
      status: "draft",
      format: "single_elimination",
      seeding: "given",
      episodes_per_match: 2,
      matches: [],
      winner: null,
    });
    expect(cup.id).toMatch(/^tour_/);
    expect(cup.entrants.map((e) => [e.seed, e.display_name])).toEqual([
      [1, "Ann"],
      [2, "Bob"],
      [3, "Cid"],
      [4, "Dee"],
    ]);

    const patched = await api().patch<Tournament>(`/v2/tournaments/${cup.id}`, {
      name: "Spring Cup 2026",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.name).toBe("Spring Cup 2026");
    for (const action of ["start", "advance"])
      expect((await act(cup.id, action)).status, action).toBe(409);

    const locked = await act(cup.id, "lock");
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.status).toBe("locked");
    expect(locked.body.matches.map((m) => [m.round, m.seed_a, m.seed_b, m.status])).toEqual([
      [1, 1, 4, "ready"],
      [1, 2, 3, "ready"],
      [2, null, null, "pending"],
    ]);
    const late = await api().patch<ErrorBody>(`/v2/tournaments/${cup.id}`, { name: "Too late" });
    expect(late.status).toBe(409);
    expect(late.body.detail.type).toBe("tournament_state");
    expect((await act(cup.id, "lock")).status).toBe(409);

    const started = await act(cup.id, "start");
    expect(started.status, started.text).toBe(200);
    expect(started.body.status, started.body.error ?? "").toBe("running");
    expect(started.body.waves).toHaveLength(1);
    expect(
      started.body.matches.filter((m) => m.round === 1).every((m) => m.status === "running"),
    ).toBe(true);
    const wave = await api().get<ExperienceRequestDetail>(
      `/v2/experience-requests/${started.body.waves[0] ?? ""}`,
    );
    expect(wave.body.episode_count).toBe(4);
    // Each match's pair, sides swapped in its second episode.
    const seatings = wave.body.episodes
      .map((e) => e.participants.map((p) => p.player_name).join("-"))
      .sort();
    expect(seatings).toEqual(["Ann-Dee", "Bob-Cid", "Cid-Bob", "Dee-Ann"]);
    expect((await act(cup.id, "start")).status).toBe(409);
    // The wave still plays: advancing by hand changes nothing.
    const idle = await act(cup.id, "advance");
    expect(idle.status).toBe(200);
    expect(idle.body.waves).toHaveLength(1);

    // Cid upsets Bob; Ann beats Dee; Ann beats Cid in the final.
    const done = await playOut(cup.id, byStrength({ Ann: 9, Cid: 5, Bob: 4, Dee: 1 }));
    expect(done.status).toBe("completed");
    expect(done.winner).toMatchObject({ seed: 1, display_name: "Ann" });
    expect(done.waves).toHaveLength(2);
    expect(
      done.matches.map((m) => [
        m.round,
        m.seed_a,
        m.seed_b,
        m.winner_seed,
        m.decided_by,
        m.status,
        m.episodes_completed,
      ]),
    ).toEqual([
      [1, 1, 4, 1, "score", "completed", 2],
      [1, 2, 3, 3, "score", "completed", 2],
      [2, 1, 3, 1, "score", "completed", 2],
    ]);
    expect(done.matches[1]).toMatchObject({ score_a: 4, score_b: 5 });
    // The league's feed tells the story, once each: started, three matches, the winner.
    const story = (await tournamentEvents(cup.id)).map((e) => [
      e.event_type,
      e.payload.round ?? null,
      e.payload.winner_seed ?? null,
    ]);
    expect(story).toEqual([
      ["tournament_started", null, null],
      ["tournament_match_decided", 1, 1],
      ["tournament_match_decided", 1, 3],
      ["tournament_match_decided", 2, 1],
      ["tournament_completed", null, 1],
    ]);
    expect((await tournamentEvents(cup.id)).at(-1)?.headline).toBe(`Ann won ${done.name}`);
    for (const action of ["lock", "start", "advance", "cancel"])
      expect((await act(cup.id, action)).status, action).toBe(409);
    const listed = await client(t.url).get<Tournament[]>(`/v2/leagues/${tl.league.id}/tournaments`);
    expect(listed.body.map((x) => x.id)).toContain(cup.id);
  }, 120_000);

  it("gives the top seeds byes, and a void match (every episode failed) to the higher seed", async () => {
    const cup = (
      await create({
        name: "Odd Cup",
        format: "single_elimination",
        policy_version_ids: versions(5),
      })
    ).body;
    const locked = (await act(cup.id, "lock")).body;
    expect(
      locked.matches
        .filter((m) => m.round === 1)
        .map((m) => [m.seed_a, m.seed_b, m.status, m.decided_by]),
    ).toEqual([
      [1, null, "completed", "bye"],
      [4, 5, "ready", null],
      [2, null, "completed", "bye"],
      [3, null, "completed", "bye"],
    ]);
    // Both byes of the lower half meet at once: seeds 2 and 3 are ready in round 2.
    expect(
      locked.matches.filter((m) => m.round === 2).map((m) => [m.seed_a, m.seed_b, m.status]),
    ).toEqual([
      [1, null, "pending"],
      [2, 3, "ready"],
    ]);
    const started = (await act(cup.id, "start")).body;
    expect(
      started.matches.filter((m) => m.status === "running").map((m) => [m.round, m.position]),
    ).toEqual([
      [1, 1],
      [2, 1],
    ]);
    // The runner fails Dee vs Eve's episode: void, seed 4 advances; Cid beats Bob on score.
    const jobs = await runner.lease();
    for (const job of jobs) {
      const names = job.players.map((p) => p.display_name);
      if (names.includes("Dee")) {
        const res = await runner.fail(job, {
          error_type: "game_crashed",
          error: "crashed on purpose",
        });
        expect(res.status, res.text).toBe(200);
      } else {
        await runner.complete(
          job,
          names.map((n) => (n === "Cid" ? 3 : 1)),
        );
      }
    }
    const done = await playOut(cup.id, byStrength({ Ann: 1, Dee: 2, Cid: 3 }));
    const byPlace = (round: number, position: number) =>
      done.matches.find((m) => m.round === round && m.position === position);
    expect(done.status).toBe("completed");
    expect(byPlace(1, 1)).toMatchObject({
      status: "void",
      winner_seed: 4,
      decided_by: "void_higher_seed",
      episodes_completed: 0,
    });
    expect(byPlace(2, 1)).toMatchObject({ status: "completed", winner_seed: 3 });
    expect(byPlace(2, 0)).toMatchObject({ seed_a: 1, seed_b: 4, winner_seed: 4 });
    expect(done.winner?.display_name).toBe("Cid");
  }, 120_000);

  it("plays a round robin: every pair once, a round per wave, the most wins taking it", async () => {
    const cup = (
      await create({ name: "League Cup", format: "round_robin", policy_version_ids: versions(3) })
    ).body;
    const locked = (await act(cup.id, "lock")).body;
    // Three entrants: three rounds of one match each, one entrant sitting out every round.
    expect(locked.matches.map((m) => [m.round, m.seed_a, m.seed_b, m.status])).toEqual([
      [1, 2, 3, "ready"],
      [2, 1, 3, "pending"],
      [3, 1, 2, "pending"],
    ]);
    expect((await act(cup.id, "start")).body.waves).toHaveLength(1);
    // Cid beats both; Ann beats Bob.
    const done = await playOut(cup.id, byStrength({ Cid: 3, Ann: 2, Bob: 1 }));
    expect(done.status).toBe("completed");
    expect(done.waves).toHaveLength(3);
    expect(done.matches.map((m) => m.winner_seed)).toEqual([3, 3, 1]);
    expect(done.winner?.display_name).toBe("Cid");
    expect((await tournamentEvents(cup.id)).map((e) => e.event_type)).toEqual([
      "tournament_started",
      ...Array<string>(3).fill("tournament_match_decided"),
      "tournament_completed",
    ]);
  }, 120_000);

  it("plays a double elimination: a loser's second life in the losers bracket, then the grand final", async () => {
    const cup = (
      await create({
        name: "Second Chance Cup",
        format: "double_elimination",
        policy_version_ids: versions(4),
      })
    ).body;
    const locked = (await act(cup.id, "lock")).body;
    const stages = (x: Tournament) =>
      x.matches.map((m) => [m.bracket, m.round, m.seed_a, m.seed_b, m.status, m.winner_seed]);
    expect(stages(locked)).toEqual([
      ["winners", 1, 1, 4, "ready", null],
      ["winners", 1, 2, 3, "ready", null],
      ["winners", 2, null, null, "pending", null],
      ["losers", 1, null, null, "pending", null],
      ["losers", 2, null, null, "pending", null],
      ["final", 1, null, null, "pending", null],
    ]);
    expect((await act(cup.id, "start")).body.waves).toHaveLength(1);
    // Bob beats everyone; Ann loses to Bob in the winners final, comes back through the losers
    // bracket, and meets Bob again in the grand final.
    const done = await playOut(cup.id, byStrength({ Bob: 9, Ann: 5, Cid: 3, Dee: 1 }));
    expect(done.status, done.error ?? "").toBe("completed");
    expect(stages(done)).toEqual([
      ["winners", 1, 1, 4, "completed", 1],
      ["winners", 1, 2, 3, "completed", 2],
      ["winners", 2, 1, 2, "completed", 2],
      ["losers", 1, 4, 3, "completed", 3],
      ["losers", 2, 3, 1, "completed", 1],
      ["final", 1, 2, 1, "completed", 2],
    ]);
    // The winners final and the first losers round play in one wave: each entrant once.
    expect(done.waves).toHaveLength(4);
    expect(done.winner?.display_name).toBe("Bob");
    const story = await tournamentEvents(cup.id);
    expect(story.map((e) => e.event_type)).toEqual([
      "tournament_started",
      ...Array<string>(6).fill("tournament_match_decided"),
      "tournament_completed",
    ]);
    expect(story.map((e) => e.headline)).toContain(`${cup.name}, grand final: Bob beat Ann`);
    expect(story.map((e) => e.headline)).toContain(
      `${cup.name}, losers bracket round 2: Ann beat Cid`,
    );
  }, 120_000);

  it("plays out the byes of a double elimination at lock, in both brackets", async () => {
    const cup = (
      await create({ name: "Three", format: "double_elimination", policy_version_ids: versions(3) })
    ).body;
    const locked = (await act(cup.id, "lock")).body;
    expect(
      locked.matches.map((m) => [m.bracket, m.round, m.seed_a, m.seed_b, m.status, m.decided_by]),
    ).toEqual([
      ["winners", 1, 1, null, "completed", "bye"],
      ["winners", 1, 2, 3, "ready", null],
      ["winners", 2, 1, null, "pending", null],
      // Seed 1's bye drops nobody: the loser of 2 v 3 goes through the first losers round alone.
      ["losers", 1, null, null, "pending", null],
      ["losers", 2, null, null, "pending", null],
      ["final", 1, null, null, "pending", null],
    ]);
    await act(cup.id, "start");
    const done = await playOut(cup.id, byStrength({ Ann: 3, Bob: 2, Cid: 1 }));
    expect(done.status).toBe("completed");
    expect(done.winner?.display_name).toBe("Ann");
    // 2n − 2 matches played, the byes aside.
    expect(done.matches.filter((m) => m.decided_by === "score")).toHaveLength(4);
    expect(done.matches.find((m) => m.bracket === "losers" && m.round === 1)).toMatchObject({
      seed_a: null,
      seed_b: 3,
      winner_seed: 3,
      decided_by: "bye",
    });
  }, 120_000);

  it("cancels from draft, locked or running, withdrawing the wave that plays", async () => {
    const draft = (
      await create({ name: "Never", format: "single_elimination", policy_version_ids: versions(2) })
    ).body;
    expect((await act(draft.id, "cancel")).body.status).toBe("cancelled");
    expect((await act(draft.id, "lock")).status).toBe(409);
    const running = (
      await create({
        name: "Stopped",
        format: "single_elimination",
        policy_version_ids: versions(2),
      })
    ).body;
    await act(running.id, "lock");
    const started = (await act(running.id, "start")).body;
    const cancelled = await act(running.id, "cancel");
    expect(cancelled.body.status).toBe("cancelled");
    const wave = await api().get<ExperienceRequestDetail>(
      `/v2/experience-requests/${started.waves[0] ?? ""}`,
    );
    expect(wave.body.status).toBe("cancelled");
    expect((await act(running.id, "cancel")).status).toBe(409);
    expect((await tournamentEvents(running.id)).map((e) => e.event_type)).toEqual([
      "tournament_started",
      "tournament_cancelled",
    ]);
    expect((await tournamentEvents(draft.id)).map((e) => e.event_type)).toEqual([
      "tournament_cancelled",
    ]);

    // An admin's tournament in the commissioner's league: the commissioner's cancel withdraws
    // the wave requested as the admin. Its entrants are the admin's own (the commissioner's
    // versions are in no league, so theirs to enter alone).
    const adminOwned = { token: t.adminToken };
    const entrants = [
      await tl.addPlayer("Adm", { owner: adminOwned }),
      await tl.addPlayer("Ina", { owner: adminOwned }),
    ].map((p) => p.policyVersionId);
    const admins = (
      await create(
        { name: "Admin's", format: "single_elimination", policy_version_ids: entrants },
        t.adminToken,
      )
    ).body;
    await act(admins.id, "lock", t.adminToken);
    const adminWave = (await act(admins.id, "start", t.adminToken)).body.waves[0] ?? "";
    expect((await act(admins.id, "cancel")).body.status).toBe("cancelled");
    expect(
      (
        await client(t.url, t.adminToken).get<ExperienceRequestDetail>(
          `/v2/experience-requests/${adminWave}`,
        )
      ).body.status,
    ).toBe("cancelled");
  }, 60_000);
});
