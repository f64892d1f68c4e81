// Test support for league play over real HTTP: a league on the example coworld (uploaded under
// a fresh name), players with policy versions, submissions, and a scripted runner that leases
// the queued episode jobs and completes them with the scores a test chooses.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import {
  LEASE_TOKEN_HEADER,
  type Division,
  type DivisionInput,
  type LeaderboardRow,
  type League,
  type LeagueSubmission,
  type LeasedJob,
} from "@gauntlet/core";

import { packDirectory } from "../src/blobs/tarball.ts";
import { client, type HttpResult } from "./http.ts";
import { PATIENCE_MS } from "./patience.ts";
import type { TestServer } from "./start-server.ts";

export const GRIDRUSH_DIR = join(import.meta.dirname, "../../../examples/coworlds/gridrush");

let bundle: Promise<Buffer> | undefined;
/** The example coworld's files, packed once per test file. */
export function gridrushBundle(): Promise<Buffer> {
  bundle ??= packDirectory(GRIDRUSH_DIR);
  return bundle;
}

export function gridrushManifest(name: string): Record<string, unknown> {
  const manifest = JSON.parse(
    readFileSync(join(GRIDRUSH_DIR, "coworld_manifest.json"), "utf8"),
  ) as { game: Record<string, unknown> };
  return { ...manifest, game: { ...manifest.game, name } };
}

export async function postBytes<T>(url: string, token: string, bytes: Buffer): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface TestPlayer {
  id: string;
  name: string;
  policyVersionId: string;
}

export interface TestLeague {
  league: League;
  /** Top first (level 1 first). */
  divisions: Division[];
  commissioner: { id: string; token: string };
  coworldId: string;
  /** A player of `owner` (the commissioner unless given) with a policy version of the example's baseline `baseline`. */
  addPlayer(
    name: string,
    options?: { owner?: { token: string }; baseline?: "greedy" | "wanderer" | "random" },
  ): Promise<TestPlayer>;
  /** A further policy version for a player (same policy name gives the next version). */
  addVersion(player: TestPlayer, policyName: string, owner?: { token: string }): Promise<string>;
  submit(
    player: TestPlayer,
    body?: Record<string, unknown>,
    token?: string,
  ): Promise<LeagueSubmission>;
  leaderboard(divisionId: string): Promise<LeaderboardRow[] | null>;
}

export interface TestLeagueOptions {
  settings?: Record<string, unknown>;
  divisions?: Partial<DivisionInput>[];
  public?: boolean;
  /** The commissioner (who uploads the coworld and owns `addPlayer`'s policies) is an admin. */
  adminCommissioner?: boolean;
  /** Top-level manifest fields over the example's (`players_per_user`, `episode_timeout_minutes`). */
  manifest?: Record<string, unknown>;
  /** The league's commissioner_config (e.g. a coworld commissioner's `commissioner_runnable_id`). */
  commissionerConfig?: Record<string, unknown>;
  /** An existing user as the commissioner (a new one unless given). */
  commissioner?: { id: string; token: string };
  /** The coworld's files (the example's unless given): e.g. with a commissioner program. */
  bundle?: Buffer;
}

/** The ladder used unless a test says otherwise: two-player round robin, Elo, quick episodes. */
export const FAST_LADDER = {
  ranking: "elo",
  seating: "round_robin",
  players_per_episode: 2,
  game_config: { turns: 5, width: 5, height: 5 },
};

export async function createTestLeague(
  t: TestServer,
  options: TestLeagueOptions = {},
): Promise<TestLeague> {
  const commissioner =
    options.commissioner ?? (await t.newUser({ admin: options.adminCommissioner ?? false }));
  const api = client(t.url, commissioner.token);
  const name = `gridrush-${randomBytes(4).toString("hex")}`;
  const upload = await postBytes<{ upload_id: string }>(
    `${t.url}/v2/coworlds/bundles`,
    commissioner.token,
    options.bundle ?? (await gridrushBundle()),
  );
  const coworld = await api.post<{ id: string; game_id: string }>("/v2/coworlds/upload", {
    manifest: { ...gridrushManifest(name), ...options.manifest },
    bundle_upload_id: upload.upload_id,
  });
  if (coworld.status !== 200) throw new Error(`coworld upload: ${coworld.status} ${coworld.text}`);
  const divisions = (options.divisions ?? [{ name: "Premier", level: 1 }]).map((d, i) => ({
    name: `Division ${i + 1}`,
    level: i + 1,
    ...d,
  }));
  const created = await api.post<League>("/v2/leagues", {
    name: `League of ${name}`,
    game_id: coworld.body.game_id,
    public: options.public ?? true,
    settings: { ladder: { ...FAST_LADDER, ...options.settings } },
    ...(options.commissionerConfig ? { commissioner_config: options.commissionerConfig } : {}),
    divisions,
  });
  if (created.status !== 201) throw new Error(`league: ${created.status} ${created.text}`);
  const listed = await api.get<Division[]>(`/v2/divisions?league_id=${created.body.id}`);
  const bundles = new Map<string, string>();
  const bundleOf = async (token: string) => {
    let id = bundles.get(token);
    if (!id) {
      id = (
        await postBytes<{ id: string }>(
          `${t.url}/v2/policy-bundles/upload`,
          token,
          await gridrushBundle(),
        )
      ).id;
      bundles.set(token, id);
    }
    return id;
  };
  const version = async (token: string, policyName: string, baseline: string, playerId: string) => {
    const res = await client(t.url, token).post<{ id: string }>(
      "/stats/policies/docker-img/complete",
      {
        name: policyName,
        policy_bundle_id: await bundleOf(token),
        run: ["node", `players/${baseline}.ts`],
        player_id: playerId,
      },
    );
    if (res.status !== 200) throw new Error(`policy version: ${res.status} ${res.text}`);
    return res.body.id;
  };
  return {
    league: created.body,
    divisions: [...listed.body].sort((a, b) => a.level - b.level),
    commissioner,
    coworldId: coworld.body.id,
    async addPlayer(playerName, opts = {}) {
      const token = opts.owner?.token ?? commissioner.token;
      const player = await client(t.url, token).post<{ id: string }>("/players", {
        name: playerName,
      });
      if (player.status !== 201 && player.status !== 200)
        throw new Error(`player: ${player.status} ${player.text}`);
      const baseline = opts.baseline ?? "greedy";
      return {
        id: player.body.id,
        name: playerName,
        policyVersionId: await version(
          token,
          `${baseline}-${playerName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
          baseline,
          player.body.id,
        ),
      };
    },
    async addVersion(player, policyName, owner) {
      return version(owner?.token ?? commissioner.token, policyName, "greedy", player.id);
    },
    async submit(player, body = {}, token = commissioner.token) {
      const res = await client(t.url, token).post<LeagueSubmission>("/v2/league-submissions", {
        league_id: created.body.id,
        policy_version_id: player.policyVersionId,
        player_id: player.id,
        ...body,
      });
      if (res.status !== 201) throw new Error(`submission: ${res.status} ${res.text}`);
      return res.body;
    },
    async leaderboard(divisionId) {
      return (
        await client(t.url).get<LeaderboardRow[] | null>(`/v2/divisions/${divisionId}/leaderboard`)
      ).body;
    },
  };
}

/** Scores for a job's seats, by each seat's display name (the player's name). */
export type Scorer = (names: string[], job: LeasedJob) => number[];

/** The stronger name wins: `strength` ranks names, higher is stronger; unknown names score 0. */
export function byStrength(strength: Record<string, number>): Scorer {
  return (names) => names.map((n) => strength[n] ?? 0);
}

export interface ScriptedRunner {
  /** The runner's machine token. */
  token: string;
  /** Leases what is queued and completes it; returns the jobs it ran. */
  runQueued(scorer: Scorer): Promise<LeasedJob[]>;
  lease(capacity?: number): Promise<LeasedJob[]>;
  /** Completes a leased job with `scores`, and `extra` fields of the report (its `cpu`). */
  complete(job: LeasedJob, scores: number[], extra?: Record<string, unknown>): Promise<number>;
  /** Reports a failure of a leased job (the body's runner_id is filled in); answers the status. */
  fail(job: LeasedJob, body: Record<string, unknown>): Promise<HttpResult>;
  /** Uploads one artifact of a leased job; answers the status. */
  upload(job: LeasedJob, name: string, bytes: string | Uint8Array): Promise<number>;
}

/** The lease header a report on `job` carries. */
export const leaseHeaders = (job: Pick<LeasedJob, "lease_token">): Record<string, string> => ({
  [LEASE_TOKEN_HEADER]: job.lease_token,
});

export async function scriptedRunner(
  t: TestServer,
  name = `scripted-${randomBytes(3).toString("hex")}`,
): Promise<ScriptedRunner> {
  const token = await t.machineToken(name);
  const api = client(t.url, token);
  const lease = async (capacity = 32) => {
    const res = await api.post<{ jobs: LeasedJob[] }>("/v2/runner/jobs/lease", {
      runner_id: name,
      capacity,
      runtimes: ["process"],
      // Runs no code, and leases users' jobs: a runner that says `process` gets admins' code only.
      isolation: "sandbox",
    });
    if (res.status !== 200) throw new Error(`lease: ${res.status} ${res.text}`);
    return res.body.jobs;
  };
  const complete = async (job: LeasedJob, scores: number[], extra: Record<string, unknown> = {}) =>
    (
      await api.post(
        `/v2/runner/jobs/${job.job_id}/complete`,
        { runner_id: name, results: { scores, winner_slot: null, turns: 5, seed: 1 }, ...extra },
        { headers: leaseHeaders(job) },
      )
    ).status;
  return {
    token,
    lease,
    complete,
    fail: (job, body) =>
      api.post(
        `/v2/runner/jobs/${job.job_id}/fail`,
        { runner_id: name, ...body },
        { headers: leaseHeaders(job) },
      ),
    async upload(job, artifact, bytes) {
      const res = await fetch(`${t.url}/v2/runner/jobs/${job.job_id}/artifacts/${artifact}`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/octet-stream",
          ...leaseHeaders(job),
        },
        body: bytes,
      });
      await res.arrayBuffer();
      return res.status;
    },
    async runQueued(scorer) {
      const jobs = await lease();
      for (const job of jobs)
        await complete(
          job,
          scorer(
            job.players.map((p) => p.display_name),
            job,
          ),
        );
      return jobs;
    },
  };
}

/** Polls until `probe` gives a value (no fixed sleeps); `timeoutMs` only turns a hang into a message. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
