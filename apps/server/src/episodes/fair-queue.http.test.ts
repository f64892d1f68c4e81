// The fair work queue over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set): one
// requester's backlog does not hold back a league round or another requester, the per-user cap
// holds, and queued episodes show their place in the order and when they should start.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, ExperienceRequestDetail, LeasedJob } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let runner: ScriptedRunner;

interface Requester {
  token: string;
  seats: TestPlayer[];
}
let ann: Requester;
let bea: Requester;

async function requester(name: string): Promise<Requester> {
  const user = await t.newUser();
  const owner = { token: user.token };
  return {
    token: user.token,
    seats: [
      await tl.addPlayer(`${name}1`, { owner }),
      await tl.addPlayer(`${name}2`, { owner, baseline: "random" }),
    ],
  };
}

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  runner = await scriptedRunner(t, "fair");
  ann = await requester("Ann");
  bea = await requester("Bea");
}, 60_000);
afterAll(async () => {
  await t?.close();
});
/** Jobs leased by a test and not yet completed. */
const held = new Map<string, LeasedJob>();
async function lease(capacity: number): Promise<LeasedJob[]> {
  const jobs = await runner.lease(capacity);
  for (const job of jobs) held.set(job.job_id, job);
  return jobs;
}
async function complete(job: LeasedJob): Promise<number> {
  held.delete(job.job_id);
  return runner.complete(
    job,
    job.players.map(() => 0),
  );
}
// Each test leaves an empty queue and nothing running, so the next starts from level shares.
afterEach(async () => {
  for (const job of [...held.values()]) await complete(job);
  for (let jobs = await lease(32); jobs.length > 0; jobs = await lease(32))
    for (const job of jobs) await complete(job);
});

async function evaluate(who: Requester, episodes: number): Promise<ExperienceRequestDetail> {
  const res = await client(t.url, who.token).post<ExperienceRequestDetail>(
    "/v2/experience-requests",
    {
      coworld_id: tl.coworldId,
      roster: who.seats.map((s) => ({ player: { policy_ref: s.policyVersionId } })),
      num_episodes: episodes,
      game_config_overrides: { turns: 5, width: 5, height: 5 },
    },
  );
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Whose episode a leased job plays: the request whose episodes include it. */
const ownerOf = (requests: Record<string, ExperienceRequestDetail>) => (job: LeasedJob) =>
  Object.entries(requests).find(([, r]) =>
    r.episodes.some((e) => e.id === job.episode_request_id),
  )?.[0] ?? "other";

describe("the fair queue", () => {
  it("gives a league round the first free slot behind one requester's 20 queued episodes", async () => {
    const backlog = await evaluate(ann, 20);
    const running = await lease(2);
    expect(running).toHaveLength(2);
    for (const p of [tl.addPlayer("Lee"), tl.addPlayer("Max")]) await tl.submit(await p);
    const round = await client(t.url, tl.commissioner.token).post<{
      rounds: { id: string }[];
    }>(`/v2/leagues/${tl.league.id}/trigger-round`, {});
    expect(round.status, round.text).toBe(200);
    const roundId = round.body.rounds[0]?.id ?? "";
    const episodes = await client(t.url).get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?round_id=${roundId}`,
    );
    const [first] = episodes.body.entries;
    if (!first) throw new Error("the round queued no episode");
    // Shown as next, ahead of the 18 evaluation episodes queued before it, and so is the round.
    expect(first.queue_position).toBe(1);
    const waiting = await client(t.url).get<{ waiting: { queue_position: number } | null }>(
      `/v2/rounds/${roundId}`,
    );
    expect(waiting.body.waiting?.queue_position).toBe(1);

    const [done] = running;
    if (!done) throw new Error("unreachable");
    expect(await complete(done)).toBe(200);
    const [next] = await lease(1);
    expect(next?.episode_request_id).not.toBeUndefined();
    expect(backlog.episodes.map((e) => e.id)).not.toContain(next?.episode_request_id);
    expect(episodes.body.entries.map((e) => e.id)).toContain(next?.episode_request_id);
  });

  // A runner of one slot and a league round queued first: counting running jobs alone, the
  // league's (0 + 1) / 4 beat an evaluation's (0 + 1) / 2 at every lease until the round was done.
  it("on a runner of one slot, lets an evaluation in once the league has had its share since it came", async () => {
    for (const name of ["Ned", "Ola", "Pia", "Quin"]) await tl.submit(await tl.addPlayer(name));
    const round = await client(t.url, tl.commissioner.token).post<{ rounds: { id: string }[] }>(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    expect(round.status, round.text).toBe(200);
    const roundEpisodes = await client(t.url).get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?round_id=${round.body.rounds[0]?.id ?? ""}`,
    );
    expect(roundEpisodes.body.entries.length).toBeGreaterThanOrEqual(4);
    const request = await evaluate(bea, 1);
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const [job] = await lease(1);
      if (!job) throw new Error("nothing to lease");
      order.push(job.episode_request_id === request.episodes[0]?.id ? "evaluation" : "league");
      expect(await complete(job)).toBe(200);
    }
    // Two league episodes for the evaluation's one: weights 4 and 2.
    expect(order).toEqual(["league", "league", "evaluation", "league"]);
  });

  it("takes two requesters' evaluations in turns, each at most the per-user cap at once", async () => {
    const requests = { ann: await evaluate(ann, 6), bea: await evaluate(bea, 6) };
    const owner = ownerOf(requests);
    const first = await lease(10);
    expect(first.map(owner)).toEqual(["ann", "bea", "ann", "bea", "ann", "bea", "ann", "bea"]);
    // Both at the cap of 4: their further episodes wait though the runner has room.
    expect(await lease(10)).toEqual([]);
    const [annsFirst] = first;
    if (!annsFirst) throw new Error("unreachable");
    await complete(annsFirst);
    expect((await lease(10)).map(owner)).toEqual(["ann"]);
  });

  it("shows each queued episode's place in the fair order and an estimated start, in the request and the episode", async () => {
    // One completed episode gives the estimate a length to go by.
    const warm = await evaluate(ann, 1);
    const [job] = await lease(1);
    expect(job?.episode_request_id).toBe(warm.episodes[0]?.id);
    if (job) await complete(job);

    const a = await evaluate(ann, 3);
    const b = await evaluate(bea, 2);
    expect(a.episodes.map((e) => e.queue_position)).toEqual([1, 2, 3]);
    expect((await lease(1)).map((j) => j.episode_request_id)).toEqual([a.episodes[0]?.id]);

    const read = async (id: string) =>
      (await client(t.url, ann.token).get<ExperienceRequestDetail>(`/v2/experience-requests/${id}`))
        .body.episodes;
    const annNow = await read(a.id);
    const beaNow = (
      await client(t.url, bea.token).get<ExperienceRequestDetail>(`/v2/experience-requests/${b.id}`)
    ).body.episodes;
    // Bea has nothing running, Ann one: Bea's first goes next, then they take turns.
    expect(annNow.map((e) => [e.status, e.queue_position])).toEqual([
      ["running", null],
      ["submitted", 2],
      ["submitted", 4],
    ]);
    expect(beaNow.map((e) => e.queue_position)).toEqual([1, 3]);
    // Later places start later; each read estimates from its own moment.
    for (const [first, second] of [
      [annNow[1], annNow[2]],
      [beaNow[0], beaNow[1]],
    ]) {
      const [early, late] = [first, second].map((e) => Date.parse(e?.estimated_start_at ?? ""));
      expect(early).toBeGreaterThanOrEqual(Date.now() - 60_000);
      expect(late).toBeGreaterThan(early ?? Infinity);
    }
    expect(annNow[0]?.estimated_start_at).toBeNull();

    const one = await client(t.url, ann.token).get<EpisodeRequest>(
      `/v2/episode-requests/${annNow[2]?.id ?? ""}`,
    );
    expect(one.body).toMatchObject({
      queue_position: 4,
      estimated_start_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});
