// Experience requests over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set), with a
// scripted runner completing the queued episodes: counts by state always add up, the request
// ends by itself, cancel withdraws queued episodes, and the live topic tells its requester.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  EpisodeRequest,
  ExperienceRequestDetail,
  ExperienceRequestPage,
  ExperienceRequestRow,
} from "@gauntlet/core";

import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { openSocket } from "../../testing/test-socket.ts";

let t: TestServer;
let tl: TestLeague;
let ada: TestPlayer;
let bob: TestPlayer;
let cyd: TestPlayer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  ada = await tl.addPlayer("Ada");
  bob = await tl.addPlayer("Bob", { baseline: "random" });
  cyd = await tl.addPlayer("Cyd", { baseline: "wanderer" });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function addsUp(row: ExperienceRequestRow): boolean {
  return (
    row.episode_count ===
    row.pending_count +
      row.submitted_count +
      row.running_count +
      row.completed_count +
      row.failed_count +
      row.cancelled_count
  );
}

const api = () => client(t.url, tl.commissioner.token);

async function create(body: Record<string, unknown>) {
  return api().post<ExperienceRequestDetail>("/v2/experience-requests", body);
}

describe("experience requests", () => {
  it("queues the episodes, counts them by state, ends completed, and is 409 on cancel afterwards", async () => {
    const socket = openSocket(t.url, tl.commissioner.token);
    const res = await create({
      coworld_id: tl.coworldId,
      roster: [
        { player: { policy_ref: ada.policyVersionId } },
        { player: { policy_ref: bob.policyVersionId } },
      ],
      num_episodes: 3,
      game_config_overrides: { turns: 5, width: 5, height: 5 },
      notes: "smoke",
    });
    expect(res.status, res.text).toBe(201);
    const xr = res.body;
    expect(xr).toMatchObject({
      status: "submitted",
      episode_count: 3,
      submitted_count: 3,
      completed_count: 0,
      coworld_id: tl.coworldId,
      notes: "smoke",
    });
    expect(xr.id).toMatch(/^xreq_/);
    expect(xr.episodes).toHaveLength(3);
    expect(
      xr.episodes.every(
        (e) =>
          e.participants.map((p) => p.policy_version_id).join() ===
          `${ada.policyVersionId},${bob.policyVersionId}`,
      ),
    ).toBe(true);
    expect(xr.episodes[0]?.game_config).toMatchObject({ turns: 5 });
    await socket.subscribe([`experience-request:${xr.id}`]);

    const page = await api().get<ExperienceRequestPage>(
      "/v2/experience-requests?mine=true&limit=10",
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 10, offset: 0 });
    expect(page.body.entries.map((e) => e.id)).toContain(xr.id);

    const runner = await scriptedRunner(t);
    const [first] = await runner.lease(1);
    if (!first) throw new Error("no job leased");
    const mid = (await api().get<ExperienceRequestDetail>(`/v2/experience-requests/${xr.id}`)).body;
    expect(mid).toMatchObject({ status: "running", running_count: 1, submitted_count: 2 });
    expect(addsUp(mid)).toBe(true);
    expect(await runner.complete(first, [3, 1])).toBe(200);
    await runner.runQueued(byStrength({ Ada: 2, Bob: 1 }));

    const done = await eventually("the request to complete", async () => {
      const row = (await api().get<ExperienceRequestDetail>(`/v2/experience-requests/${xr.id}`))
        .body;
      return row.status === "completed" ? row : null;
    });
    expect(done).toMatchObject({
      episode_count: 3,
      completed_count: 3,
      running_count: 0,
      submitted_count: 0,
      failed_count: 0,
      error: null,
    });
    expect(done.completed_at).not.toBeNull();
    expect(addsUp(done)).toBe(true);
    expect(done.episodes.every((e) => e.status === "completed" && e.scores.length === 2)).toBe(
      true,
    );

    const episodes = await api().get<EpisodeRequest[]>(`/v2/experience-requests/${xr.id}/episodes`);
    expect(episodes.body.map((e) => e.id).sort()).toEqual(xr.episodes.map((e) => e.id).sort());

    const ended = await socket.next(
      (m) =>
        (m.data as { event_type?: string } | undefined)?.event_type ===
        "experience_request_completed",
    );
    expect(ended).toMatchObject({
      topic: `experience-request:${xr.id}`,
      data: { payload: { experience_request_id: xr.id, status: "completed", completed: 3 } },
    });
    const episodeEvent = await socket.next(
      (m) => (m.data as { event_type?: string } | undefined)?.event_type === "episode_completed",
    );
    expect(episodeEvent.topic).toBe(`experience-request:${xr.id}`);
    socket.close();

    const again = await api().post<{ detail: { type: string } }>(
      `/v2/experience-requests/${xr.id}/cancel`,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail.type).toBe("conflict");
  }, 60_000);

  it("cancel withdraws the queued episodes; a leased one still finishes and counts", async () => {
    const xr = (
      await create({
        coworld_id: tl.coworldId,
        roster: [
          { player: { policy_ref: ada.policyVersionId } },
          { player: { policy_ref: cyd.policyVersionId } },
        ],
        num_episodes: 4,
      })
    ).body;
    const runner = await scriptedRunner(t);
    const leased = await runner.lease(1);
    const job = leased[0];
    if (!job) throw new Error("no job leased");
    const cancelled = await api().post<ExperienceRequestDetail>(
      `/v2/experience-requests/${xr.id}/cancel`,
    );
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: "cancelled",
      episode_count: 4,
      cancelled_count: 3,
      running_count: 1,
    });
    expect(addsUp(cancelled.body)).toBe(true);
    // Withdrawn jobs are never leased.
    expect(
      (await runner.lease(32)).filter((j) =>
        xr.episodes.some((e) => e.id === j.episode_request_id),
      ),
    ).toEqual([]);
    expect(await runner.complete(job, [1, 0])).toBe(200);
    const after = await eventually("the leased episode to count", async () => {
      const row = (await api().get<ExperienceRequestDetail>(`/v2/experience-requests/${xr.id}`))
        .body;
      return row.completed_count === 1 ? row : null;
    });
    expect(after).toMatchObject({
      status: "cancelled",
      cancelled_count: 3,
      completed_count: 1,
      running_count: 0,
    });
    expect(addsUp(after)).toBe(true);
    expect((await api().post(`/v2/experience-requests/${xr.id}/cancel`)).status).toBe(409);
  }, 60_000);

  it("draws top_n and random seats from the division's competing champions", async () => {
    for (const p of [ada, bob, cyd]) await tl.submit(p);
    const division = tl.divisions[0];
    if (!division) throw new Error("division");
    const res = await create({
      target: { division_id: division.id },
      roster: [
        { player: { top_n: 1 }, slot: 1 },
        { player: { random: true }, slot: 0 },
      ],
      num_episodes: 5,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      league_id: tl.league.id,
      division_id: division.id,
      coworld_id: tl.coworldId,
      episode_count: 5,
    });
    const members = new Set([ada.policyVersionId, bob.policyVersionId, cyd.policyVersionId]);
    const topSeats = new Set(res.body.episodes.map((e) => e.participants[1]?.policy_version_id));
    // Unrated players tie; the best-ranked one is the same in every episode.
    expect(topSeats.size).toBe(1);
    for (const e of res.body.episodes)
      for (const p of e.participants) expect(members.has(p.policy_version_id ?? "")).toBe(true);
    expect((await api().post(`/v2/experience-requests/${res.body.id}/cancel`)).status).toBe(200);
  }, 60_000);

  it("rejects bad input with the place it is wrong, and hides others' requests", async () => {
    const roster = [
      { player: { policy_ref: ada.policyVersionId } },
      { player: { policy_ref: bob.policyVersionId } },
    ];
    const tooMany = await create({ coworld_id: tl.coworldId, roster, num_episodes: 101 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.text).toContain('"num_episodes"');
    expect((tooMany.body as unknown as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual([
      "body",
      "num_episodes",
    ]);

    const both = await create({
      coworld_id: tl.coworldId,
      roster: [{ player: { policy_ref: ada.policyVersionId, random: true } }, roster[1]],
      num_episodes: 1,
    });
    expect(both.status).toBe(422);
    expect(both.text).toContain("exactly one of policy_ref, top_n or random");

    const unknown = await create({
      coworld_id: tl.coworldId,
      roster: [{ player: { policy_ref: "no-such-policy" } }, roster[1]],
      num_episodes: 1,
    });
    expect(unknown.status).toBe(422);
    expect((unknown.body as unknown as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual([
      "body",
      "roster",
      0,
      "player",
      "policy_ref",
    ]);

    const drawWithoutDivision = await create({
      coworld_id: tl.coworldId,
      roster: [{ player: { top_n: 2 } }, roster[1]],
      num_episodes: 1,
    });
    expect(drawWithoutDivision.status).toBe(422);

    const badVariant = await create({
      coworld_id: tl.coworldId,
      variant_id: "nope",
      roster,
      num_episodes: 1,
    });
    expect(badVariant.status).toBe(422);
    expect(badVariant.text).toContain("no variant");

    expect((await api().get("/v2/experience-requests/xreq_not-a-uuid")).status).toBe(422);

    const mine = (await create({ coworld_id: tl.coworldId, roster, num_episodes: 1 })).body;
    const stranger = await t.newUser();
    expect(
      (await client(t.url, stranger.token).get(`/v2/experience-requests/${mine.id}`)).status,
    ).toBe(404);
    expect(
      (await client(t.url, stranger.token).post(`/v2/experience-requests/${mine.id}/cancel`))
        .status,
    ).toBe(404);
    expect(
      (await client(t.url, stranger.token).get<ExperienceRequestPage>("/v2/experience-requests"))
        .body.total_count,
    ).toBe(0);
    expect((await client(t.url).get("/v2/experience-requests")).status).toBe(401);
    const socket = openSocket(t.url, stranger.token);
    await socket.opened;
    socket.send({ type: "subscribe", topics: [`experience-request:${mine.id}`] });
    const refused = await socket.next((m) => m.type === "error" || m.type === "subscribed");
    socket.close();
    expect(refused.type).toBe("error");
    expect(
      (await client(t.url, t.adminToken).get(`/v2/experience-requests/${mine.id}`)).status,
    ).toBe(200);
  }, 60_000);

  it("seats a version with no bundle (an image) only on docker: process is a 422 naming its seat, and so is a play session", async () => {
    const image = await api().post<{ image: { id: string } }>("/v2/container_images/upload", {
      name: "ghcr.io/someone/policy:1",
      client_hash: "h1",
    });
    expect(image.status, image.text).toBe(200);
    await api().post("/v2/container_images/upload/complete", { id: image.body.image.id });
    const imaged = await api().post<{ id: string }>("/stats/policies/docker-img/complete", {
      name: "imaged",
      container_image_id: image.body.image.id,
      run: ["node", "players/greedy.ts"],
    });
    expect(imaged.status, imaged.text).toBe(200);
    const roster = [
      { player: { policy_ref: ada.policyVersionId } },
      { player: { policy_ref: imaged.body.id } },
    ];
    const onProcess = await create({
      coworld_id: tl.coworldId,
      roster,
      num_episodes: 1,
      execution_backend: "process",
    });
    expect(onProcess.status, onProcess.text).toBe(422);
    const detail = (onProcess.body as unknown as { detail: { loc: unknown[]; msg: string }[] })
      .detail[0];
    expect(detail?.loc).toEqual(["body", "roster", 1, "player", "policy_ref"]);
    expect(detail?.msg).toContain("docker");
    // Left to the server, it goes to docker; asked for docker, too.
    for (const backend of [{}, { execution_backend: "docker" }]) {
      const queued = await create({
        coworld_id: tl.coworldId,
        roster,
        num_episodes: 1,
        ...backend,
      });
      expect(queued.status, queued.text).toBe(201);
      await api().post(`/v2/experience-requests/${queued.body.id}/cancel`);
    }
    // A play session's opponents run as processes: no image there.
    expect((await uploadGridrushPlayModule(t.url, tl, "player_client")).status).toBe(201);
    const session = await api().post<{ detail: { loc: unknown[] }[] }>("/v2/play-sessions", {
      coworld_id: tl.coworldId,
      opponents: [imaged.body.id],
      variant_id: "duel-small",
    });
    expect(session.status, session.text).toBe(422);
    expect(session.body.detail[0]?.loc).toEqual(["body", "opponents", 0]);
  }, 60_000);

  it("caps a job's deadline by the coworld's episode_timeout_minutes", async () => {
    const quick = await createTestLeague(t, { manifest: { episode_timeout_minutes: 1 } });
    const [one, two] = [await quick.addPlayer("One"), await quick.addPlayer("Two")];
    const res = await client(t.url, quick.commissioner.token).post<ExperienceRequestDetail>(
      "/v2/experience-requests",
      {
        coworld_id: quick.coworldId,
        roster: [one, two].map((p) => ({ player: { policy_ref: p.policyVersionId } })),
        num_episodes: 1,
      },
    );
    expect(res.status, res.text).toBe(201);
    const episode = res.body.episodes[0]?.id;
    const runner = await scriptedRunner(t, "deadline-runner");
    const leased = await runner.lease();
    const job = leased.find((j) => j.episode_request_id === episode);
    for (const other of leased) await runner.complete(other, [1, 0]);
    // The server's default is two minutes; the manifest allows one.
    expect(job?.deadline_ms).toBe(60_000);
  }, 60_000);
});
