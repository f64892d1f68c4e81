// The retention policy against a started server (SQLite, or PostgreSQL with DATABASE_URL): the
// newest round episodes of a division — never fewer than the web view lists, whose replay links
// must work — and every evaluation keep their files, older round episodes lose them and say so
// (410, `artifacts_expired_at`), their results stay, blobs no row names go, and the blobs still
// named stay; commissioner jobs that ended (or were left queued) long ago go with their logs, and
// a job a session may still use never does.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, ExperienceRequestDetail, TriggerRoundResponse } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";
import { LISTED_EPISODES } from "../home/listed.ts";
import { COMMISSIONER_JOB_FLOOR_MS, expireCommissionerJobs } from "./expire-commissioner-jobs.ts";
import { HASH_COLUMNS } from "./referenced-blobs.ts";
import { retentionSettingsFrom } from "./settings.ts";

interface EpisodeList {
  entries: EpisodeRequest[];
}

let t: TestServer;
let tl: TestLeague;
let runner: ScriptedRunner;
const ROUNDS = 4;
/** Each round plays its one pairing this many times. */
const PER_ROUND = 2;
/** Fewer than the web view lists: the policy keeps what the page lists all the same. */
const KEEP = 2;
const KEPT = Math.max(KEEP, LISTED_EPISODES);
const HOUR = 60 * 60_000;
/** Finished commissioner jobs are kept this long. */
const JOBS_KEPT_MS = 2 * HOUR;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** Plays what is queued: a replay and a player log unique to each job, then the scores. */
async function playQueued(): Promise<string[]> {
  const jobs = await eventually("queued jobs", async () => {
    const leased = await runner.lease();
    return leased.length ? leased : null;
  });
  for (const job of jobs) {
    expect(await runner.upload(job, "replay", `replay of ${job.job_id}\n`)).toBe(200);
    expect(await runner.upload(job, "policy-log-0", `log of ${job.job_id}\n`)).toBe(200);
    expect(await runner.complete(job, [1, 0])).toBe(200);
  }
  return jobs.map((j) => j.episode_request_id);
}

async function episode(id: string): Promise<EpisodeRequest> {
  return (
    await client(t.url, tl.commissioner.token).get<EpisodeRequest>(`/v2/episode-requests/${id}`)
  ).body;
}

const blobs = () => t.server.context.blobs;

let roundEpisodes: string[] = [];
let evaluationEpisode = "";

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_RETENTION_EPISODES: String(KEEP),
      GAUNTLET_RETENTION_BLOB_GRACE_MS: "0",
      GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS: String(JOBS_KEPT_MS),
    },
  });
  runner = await scriptedRunner(t);
  tl = await createTestLeague(t, { settings: { episodes_per_pairing: PER_ROUND } });
  const a = await tl.addPlayer("Ada");
  const b = await tl.addPlayer("Bo");
  await tl.submit(a);
  await tl.submit(b);
  for (let i = 0; i < ROUNDS; i += 1) {
    const res = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    expect(res.status, res.text).toBe(200);
    await playQueued();
    const roundId = res.body.rounds[0]?.id ?? "";
    await eventually("the round to settle", async () => {
      const r = await client(t.url).get<{ status: string }>(`/v2/rounds/${roundId}`);
      return r.body.status === "completed";
    });
  }
  // An evaluation someone asked for, played before the newest round episodes: kept all the same.
  const evaluation = await client(t.url, tl.commissioner.token).post<ExperienceRequestDetail>(
    "/v2/experience-requests",
    {
      coworld_id: tl.coworldId,
      roster: [
        { player: { policy_ref: a.policyVersionId } },
        { player: { policy_ref: b.policyVersionId } },
      ],
      num_episodes: 1,
    },
  );
  expect(evaluation.status, evaluation.text).toBe(201);
  [evaluationEpisode = ""] = await playQueued();
  // Newest first, as the listing gives them.
  roundEpisodes = (
    await client(t.url, tl.commissioner.token).get<EpisodeList>(
      `/v2/episode-requests?division_id=${division()}&limit=100`,
    )
  ).body.entries.flatMap((e) => (e.round_id === null ? [] : [e.id]));
}, 120_000);

const division = () => tl.divisions[0]?.id ?? "";

afterAll(async () => {
  await t?.close();
});

describe("the retention policy", () => {
  it("keeps the newest round episodes' files and every evaluation's, expires the rest with a clear 410, and keeps their results", async () => {
    expect(roundEpisodes).toHaveLength(ROUNDS * PER_ROUND);
    expect(KEPT).toBeLessThan(ROUNDS * PER_ROUND);
    const expired = roundEpisodes.slice(KEPT);
    const oldReplay = sha(`replay of ${(await episode(expired[0] ?? "")).job_id}\n`);
    expect(await blobs().has(oldReplay)).toBe(true);

    const report = await t.server.retention.run();
    expect(report.episodesExpired).toBe(ROUNDS * PER_ROUND - KEPT);
    // Each expired episode's replay and player log were its own blobs: both gone from the store.
    expect(report.blobsDeleted).toBeGreaterThanOrEqual((ROUNDS * PER_ROUND - KEPT) * 2);
    expect(await blobs().has(oldReplay)).toBe(false);

    for (const id of expired) {
      const row = await episode(id);
      expect(row.artifacts_expired_at).not.toBeNull();
      expect(row.replay_url).toBeNull();
      expect(row.scores.map((s) => s.score)).toEqual([1, 0]);
      const replay = await http("GET", `${t.url}/v2/episode-requests/${id}/artifacts/replay`);
      expect(replay.status).toBe(410);
      expect(replay.text).toContain("artifacts_expired");
      const viewer = await http("GET", `${t.url}/v2/episode-requests/${id}/replay-viewer`);
      expect(viewer.status).toBe(410);
      const log = await http(
        "GET",
        `${t.url}/v2/episode-requests/${id}/${row.participants[0]?.policy_version_id ?? ""}/policy-logs/0`,
        { headers: { authorization: `Bearer ${tl.commissioner.token}` } },
      );
      expect(log.status).toBe(410);
      // The results are the record: kept.
      expect(
        (await http("GET", `${t.url}/v2/episode-requests/${id}/artifacts/results`)).status,
      ).toBe(200);
    }
    for (const id of [...roundEpisodes.slice(0, KEPT), evaluationEpisode]) {
      const row = await episode(id);
      expect(row.artifacts_expired_at, id).toBeNull();
      const replay = await http("GET", `${t.url}/v2/episode-requests/${id}/artifacts/replay`, {
        headers: { authorization: `Bearer ${tl.commissioner.token}` },
      });
      expect(replay.status, id).toBe(200);
      expect(replay.text).toBe(`replay of ${row.job_id}\n`);
    }
    // The coworld and the policies still play: their bundles are named by rows and stay.
    await client(t.url, tl.commissioner.token).post(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    const [next = ""] = await playQueued();
    expect((await episode(next)).status).toBe("completed");

    // One more round pushes its episodes' count past the kept ones.
    expect((await t.server.retention.run()).episodesExpired).toBe(PER_ROUND);
  });

  it("keeps the replay of every episode the web view lists, though the setting keeps fewer", async () => {
    await t.server.retention.run();
    // The page's own read: anonymous, the division's newest episodes.
    const listed = (
      await client(t.url).get<EpisodeList>(
        `/v2/episode-requests?division_id=${division()}&limit=${LISTED_EPISODES}`,
      )
    ).body.entries;
    expect(listed).toHaveLength(LISTED_EPISODES);
    for (const e of listed) {
      expect(e.artifacts_expired_at, e.id).toBeNull();
      expect(e.replay_url, e.id).not.toBeNull();
      const replay = await http("GET", `${t.url}/v2/episode-requests/${e.id}/artifacts/replay`);
      expect(replay.status, e.id).toBe(200);
      expect(replay.text).toBe(`replay of ${e.job_id}\n`);
    }
    // Past the page, the setting rules: the next one is expired.
    const older = (
      await client(t.url).get<EpisodeList>(
        `/v2/episode-requests?division_id=${division()}&limit=1&offset=${LISTED_EPISODES}`,
      )
    ).body.entries[0];
    expect(older?.artifacts_expired_at).not.toBeNull();
  });

  it("deletes a blob no row names, once it is older than the grace", async () => {
    const stray = await blobs().put(new TextEncoder().encode(`stray ${Date.now()}`));
    expect(await blobs().has(stray.sha256)).toBe(true);
    await t.server.retention.run();
    expect(await blobs().has(stray.sha256)).toBe(false);
  });

  it("deletes commissioner jobs, logs and all, that ended or were left queued before the setting's age, and never a live session's", async () => {
    const db = t.server.store.db;
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    /** A job queued `created` ago, ended `ended` ago (never, when null). */
    const job = (id: string, created: number, ended: number | null) => ({
      id: `cj-${id}-${tl.league.id}`,
      league_id: tl.league.id,
      coworld_id: tl.coworldId,
      runnable_id: "fixture",
      purpose: "round",
      round_id: null,
      status: ended === null ? (created > HOUR ? "queued" : "leased") : "ended",
      relay_token_hash: "x",
      lease_token_hash: null,
      lease_machine_id: null,
      runner_id: null,
      created_at: ago(created),
      lease_by: ago(created - 30_000),
      leased_at: null,
      ended_at: ended === null ? null : ago(ended),
      outcome: ended === null ? null : "ended",
      error: null,
      log: ended === null ? null : `the commissioner's log of ${id}\n`.repeat(1000),
    });
    await db
      .insertInto("commissioner_jobs")
      .values([
        job("last-month", 30 * 24 * HOUR, 30 * 24 * HOUR - 60_000),
        job("past-the-age", 3 * HOUR, 2.5 * HOUR),
        job("within-the-age", 3 * HOUR, HOUR),
        job("left-queued", 3 * HOUR, null),
        job("live", 20 * 60_000, null),
        job("just-ended", 10 * 60_000, 5 * 60_000),
      ])
      .execute();
    const left = async () =>
      (
        await db
          .selectFrom("commissioner_jobs")
          .select("id")
          .where("league_id", "=", tl.league.id)
          .execute()
      )
        .map((r) => r.id.slice("cj-".length, -`-${tl.league.id}`.length))
        .sort();

    const report = await t.server.retention.run();
    expect(report.commissionerJobsDeleted).toBe(3);
    expect(await left()).toEqual(["just-ended", "live", "within-the-age"]);

    // However short the setting, a job younger than a session's life stays.
    expect(await expireCommissionerJobs(db, 0)).toBe(1);
    expect(await left()).toEqual(["just-ended", "live"]);
    expect(COMMISSIONER_JOB_FLOOR_MS).toBeGreaterThan(10 * 60_000);

    // The setting: an age in milliseconds, `all` keeps every job, a week by default.
    expect(
      retentionSettingsFrom({ GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS: "all" }).commissionerJobsMs,
    ).toBeNull();
    expect(retentionSettingsFrom({}).commissionerJobsMs).toBe(7 * 24 * HOUR);
    expect(() =>
      retentionSettingsFrom({ GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS: "soon" }),
    ).toThrow(/GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS/);
  });

  it("reads every column of the schema that holds a blob's hash", () => {
    const schema = readFileSync(join(import.meta.dirname, "../store/schema.ts"), "utf8");
    const tables = new Map<string, string>();
    for (const match of schema.matchAll(/^\s+(\w+): (\w+Table);$/gm))
      tables.set(match[2] ?? "", match[1] ?? "");
    const found: string[] = [];
    for (const match of schema.matchAll(/export interface (\w+Table) \{([\s\S]*?)\n\}/g)) {
      const table = tables.get(match[1] ?? "");
      for (const column of (match[2] ?? "").matchAll(/^\s+(\w*(?:sha256|content_hash)\w*):/gm))
        found.push(`${table}.${column[1]}`);
    }
    const read = Object.entries(HASH_COLUMNS).flatMap(([table, columns]) =>
      columns.map((c) => `${table}.${c}`),
    );
    expect(found.length).toBeGreaterThan(5);
    expect(read).toEqual(expect.arrayContaining(found));
  });
});
