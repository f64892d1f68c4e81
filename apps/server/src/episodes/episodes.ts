// Episode requests: creation (with their job), reads, artifacts and stats.
import { randomUUID } from "node:crypto";

import type { Kysely, Transaction } from "kysely";

import {
  EpisodeTimeoutMinutes,
  newId,
  type EpisodeCpu,
  type EpisodeParticipant,
  type EpisodeRequest,
  type EpisodeSource,
  type QueryOf,
} from "@gauntlet/core";

import {
  canReadGameLog as canReadGameLogOf,
  canReadSeat,
  canSeeEpisode,
  episodeFacts,
  visibleEpisodeIds,
} from "../access/episodes.ts";
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { nextValue } from "../shared/counters.ts";
import {
  artifactsExpired,
  forbidden,
  invalidInput,
  notFound,
  unauthorized,
} from "../shared/errors.ts";
import type {
  CoworldsTable,
  Database,
  EpisodeParticipantsTable,
  EpisodeRequestsTable,
} from "../store/schema.ts";
import { seededGameConfig } from "./episode-seed.ts";
import { shareClassOf, type ShareClass } from "./queue-shares.ts";

export const EPISODE_CHANGES = "episode_changes";
export const DEFAULT_DEADLINE_MS = 120_000;
export const DEFAULT_MAX_ATTEMPTS = 3;

export interface NewParticipant {
  position: number;
  policyVersionId?: string | null;
  bundledPlayerId?: string | null;
  playerId?: string | null;
  displayName: string;
  /** A seat a person plays: the sealed `{url}` its runner relays the seat's socket to. */
  humanRelay?: string | null;
}

export interface NewEpisode {
  requesterUserId: string;
  purpose: "certification" | "round" | "experience" | "manual" | "play";
  coworld: Pick<CoworldsTable, "id">;
  gameConfig: Record<string, unknown>;
  participants: NewParticipant[];
  leagueId?: string | null;
  divisionId?: string | null;
  roundId?: string | null;
  poolId?: string | null;
  experienceRequestId?: string | null;
  runtime?: "process" | "docker";
  /** What a league's coworld commissioner asked for: its request id, tags and config overrides. */
  commissioner?: {
    requestId: string;
    tags: Record<string, string>;
    gameConfigOverrides: Record<string, unknown>;
  };
  /** The seed the requester chose; a random one otherwise. */
  seed?: number;
  deadlineMs?: number;
  maxAttempts?: number;
  /** The class of work the job is leased under; by default the purpose's (queue-shares.ts). */
  shareClass?: ShareClass;
}

/** The job's deadline: the one asked for, within the coworld's `episode_timeout_minutes`. */
function deadlineOf(manifest: Record<string, unknown> | null, asked: number | undefined): number {
  const deadline = asked ?? DEFAULT_DEADLINE_MS;
  if (!manifest) return deadline;
  const limit = EpisodeTimeoutMinutes.safeParse(manifest.episode_timeout_minutes);
  return limit.success ? Math.min(deadline, limit.data * 60_000) : deadline;
}

/** Creates an episode request and queues its job, in the caller's transaction. */
export async function createEpisode(
  trx: Transaction<Database>,
  input: NewEpisode,
): Promise<{ episodeRequestId: string; jobId: string }> {
  const now = nowIso();
  const id = newId("episodeRequest");
  const jobId = randomUUID();
  const coworld = await trx
    .selectFrom("coworlds")
    .select("manifest")
    .where("id", "=", input.coworld.id)
    .executeTakeFirst();
  const manifest = coworld ? parseJson<Record<string, unknown>>(coworld.manifest) : null;
  const chosen = input.seed;
  const { seed, gameConfig } = seededGameConfig(
    manifest,
    input.gameConfig,
    chosen === undefined ? undefined : () => chosen,
  );
  await trx
    .insertInto("episode_requests")
    .values({
      id,
      requester_user_id: input.requesterUserId,
      purpose: input.purpose,
      coworld_id: input.coworld.id,
      league_id: input.leagueId ?? null,
      division_id: input.divisionId ?? null,
      round_id: input.roundId ?? null,
      pool_id: input.poolId ?? null,
      experience_request_id: input.experienceRequestId ?? null,
      game_config: JSON.stringify(gameConfig),
      seed,
      max_steps: null,
      status: "submitted",
      job_id: jobId,
      error_type: null,
      error: null,
      failed_policy_index: null,
      results: null,
      scores: "[]",
      change_seq: await nextValue(trx, EPISODE_CHANGES),
      created_at: now,
      updated_at: now,
      ...(input.commissioner
        ? {
            commissioner_request_id: input.commissioner.requestId,
            tags: JSON.stringify(input.commissioner.tags),
            game_config_overrides: JSON.stringify(input.commissioner.gameConfigOverrides),
          }
        : {}),
    })
    .execute();
  await trx
    .insertInto("episode_participants")
    .values(
      input.participants.map((p) => ({
        episode_request_id: id,
        position: p.position,
        policy_version_id: p.policyVersionId ?? null,
        bundled_player_id: p.bundledPlayerId ?? null,
        player_id: p.playerId ?? null,
        display_name: p.displayName,
        human_relay: p.humanRelay ?? null,
      })),
    )
    .execute();
  await trx
    .insertInto("jobs")
    .values({
      id: jobId,
      episode_request_id: id,
      status: "queued",
      runtime: input.runtime ?? "process",
      attempts: 0,
      max_attempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      lease_owner: null,
      lease_expires_at: null,
      lease_token_hash: null,
      lease_machine_id: null,
      isolation: null,
      leased_at: null,
      share_class: input.shareClass ?? shareClassOf(input.purpose),
      share_owner: input.requesterUserId,
      deadline_ms: deadlineOf(manifest, input.deadlineMs),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { episodeRequestId: id, jobId };
}

/**
 * Cancels an episode that has not ended: its job is withdrawn if queued, and a runner holding
 * it learns at its next heartbeat that the job is no longer its own, and stops the game.
 */
export async function cancelEpisode(
  trx: Transaction<Database>,
  id: string,
  reason: string,
): Promise<boolean> {
  const episode = await trx
    .selectFrom("episode_requests")
    .select("status")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!episode || ["completed", "failed", "cancelled"].includes(episode.status)) return false;
  await trx
    .updateTable("jobs")
    .set({ status: "cancelled", updated_at: nowIso() })
    .where("episode_request_id", "=", id)
    .where("status", "in", ["queued", "leased"])
    .execute();
  await touchEpisode(trx, id, { status: "cancelled", error_type: "cancelled", error: reason });
  return true;
}

/** Marks a change of an episode request for the changes feed. */
export async function touchEpisode(
  trx: Transaction<Database>,
  id: string,
  set: Partial<EpisodeRequestsTable>,
): Promise<void> {
  await trx
    .updateTable("episode_requests")
    .set({ ...set, change_seq: await nextValue(trx, EPISODE_CHANGES), updated_at: nowIso() })
    .where("id", "=", id)
    .execute();
}

type ParticipantRow = EpisodeParticipantsTable & {
  policy_id: string | null;
  policy_name: string | null;
  version: number | null;
  player_name: string | null;
};

async function participantsOf(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, ParticipantRow[]>> {
  const out = new Map<string, ParticipantRow[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("episode_participants as ep")
    .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
    .leftJoin("policies as p", "p.id", "pv.policy_id")
    .leftJoin("players as pl", "pl.id", "ep.player_id")
    .selectAll("ep")
    .select([
      "p.id as policy_id",
      "p.name as policy_name",
      "pv.version as version",
      "pl.name as player_name",
    ])
    .where("ep.episode_request_id", "in", ids)
    .orderBy("ep.position")
    .execute();
  for (const row of rows) {
    const list = out.get(row.episode_request_id) ?? [];
    list.push(row);
    out.set(row.episode_request_id, list);
  }
  return out;
}

function toParticipant(row: ParticipantRow): EpisodeParticipant {
  return {
    position: row.position,
    policy_version_id: row.policy_version_id,
    policy_id: row.policy_id,
    policy_name: row.policy_name ?? row.display_name,
    version: row.version,
    player_id: row.player_id,
    player_name: row.player_name,
  };
}

export async function episodeViews(
  db: Kysely<Database>,
  rows: EpisodeRequestsTable[],
): Promise<EpisodeRequest[]> {
  const participants = await participantsOf(
    db,
    rows.map((r) => r.id),
  );
  const jobIds = rows.flatMap((r) => (r.job_id === null ? [] : [r.job_id]));
  const isolation = new Map(
    jobIds.length === 0
      ? []
      : (
          await db
            .selectFrom("jobs")
            .select(["id", "isolation"])
            .where("id", "in", jobIds)
            .execute()
        ).map((j) => [j.id, j.isolation]),
  );
  return rows.map((row) => {
    const parts = (participants.get(row.id) ?? []).map(toParticipant);
    const scores = parseJson<number[]>(row.scores);
    return {
      id: row.id,
      requester_user_id: row.requester_user_id,
      round_id: row.round_id,
      coworld_id: row.coworld_id,
      game_config: parseJson(row.game_config),
      seed: row.seed,
      max_steps: row.max_steps,
      status: row.status,
      policy_version_ids: parts.map((p) => p.policy_version_id),
      participants: parts,
      job_id: row.job_id,
      episode_id: row.status === "completed" ? row.job_id : null,
      replay_url:
        row.status === "completed" && row.artifacts_expired_at === null
          ? `/v2/episode-requests/${row.id}/artifacts/replay`
          : null,
      live_url: null,
      error_type: row.error_type,
      error: row.error,
      failed_policy_index: row.failed_policy_index,
      failed_agent_index: row.failed_policy_index,
      isolation: (row.job_id === null ? null : isolation.get(row.job_id)) ?? null,
      cpu: row.cpu === null ? null : parseJson<EpisodeCpu>(row.cpu),
      scores: scores.map((score, position) => ({
        position,
        score,
        policy_version_id: parts[position]?.policy_version_id ?? null,
      })),
      tags: parseJson<Record<string, string>>(row.tags ?? "{}"),
      game_config_overrides: parseJson<Record<string, unknown>>(row.game_config_overrides ?? "{}"),
      created_at: row.created_at,
      updated_at: row.updated_at,
      artifacts_expired_at: row.artifacts_expired_at,
      // Filled in by the reads that place queued episodes (queue-position.ts).
      queue_position: null,
      estimated_start_at: null,
    };
  });
}

export async function getEpisodeRow(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<EpisodeRequestsTable> {
  const row = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  const facts = row ? (await episodeFacts(db, [row])).get(row.id) : undefined;
  if (!row || !facts || !canSeeEpisode(identity, facts)) throw notFound("episode request", id);
  return row;
}

/** The episode request a job played, seen as getEpisodeRow sees it: a job of one you may not see is 404. */
export async function getEpisodeRowByJob(
  db: Kysely<Database>,
  identity: Identity,
  jobId: string,
): Promise<EpisodeRequestsTable> {
  const row = await db
    .selectFrom("jobs")
    .innerJoin("episode_requests as er", "er.id", "jobs.episode_request_id")
    .selectAll("er")
    .where("jobs.id", "=", jobId)
    .executeTakeFirst();
  // The 404 names the job alone: which episode a hidden job played is not the caller's to learn.
  const facts = row ? (await episodeFacts(db, [row])).get(row.id) : undefined;
  if (!row || !facts || !canSeeEpisode(identity, facts)) throw notFound("job", jobId);
  return row;
}

type EpisodeFilter = QueryOf<"listEpisodeRequests">;

/** The purpose an episode is stored with, for each `source` the list filters by. */
const PURPOSE_OF_SOURCE: Record<EpisodeSource, string> = {
  coworld_upload: "certification",
  league: "round",
  experience_request: "experience",
  manual: "manual",
  hosted_game: "play",
  bulk_upload: "upload",
};

function decodeCursor(cursor: string, loc: (string | number)[]): string[] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parts) && parts.every((p) => typeof p === "string")) return parts;
  } catch {
    // fall through to the 422 below
  }
  throw invalidInput(loc, "not a cursor returned by this endpoint", "value_error", cursor);
}

const encodeCursor = (parts: string[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");

export async function listEpisodes(
  db: Kysely<Database>,
  identity: Identity,
  filter: EpisodeFilter,
) {
  let q = db
    .selectFrom("episode_requests")
    .selectAll()
    .where("id", "in", visibleEpisodeIds(db, identity));
  for (const key of ["coworld_id", "division_id", "round_id", "pool_id", "status"] as const) {
    const value = filter[key];
    if (value) q = q.where(key, "=", value);
  }
  if (filter.source) q = q.where("purpose", "=", PURPOSE_OF_SOURCE[filter.source]);
  // Episodes with a seat played for this player or by this policy version.
  for (const key of ["player_id", "policy_version_id"] as const) {
    const value = filter[key];
    if (value)
      q = q.where(
        "id",
        "in",
        db.selectFrom("episode_participants").select("episode_request_id").where(key, "=", value),
      );
  }
  if (filter.policy_id)
    q = q.where(
      "id",
      "in",
      db
        .selectFrom("episode_participants as ep")
        .innerJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
        .select("ep.episode_request_id")
        .where("pv.policy_id", "=", filter.policy_id),
    );
  if (filter.mine) {
    if (!isAuthenticated(identity))
      throw unauthorized("mine=true lists the caller's own episodes: it needs a bearer token.");
    // A seat is the caller's when they own its policy or the player it played for.
    const owner = identity.userId;
    q = q.where(
      "id",
      "in",
      db
        .selectFrom("episode_participants as ep")
        .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
        .leftJoin("policies as p", "p.id", "pv.policy_id")
        .leftJoin("players as pl", "pl.id", "ep.player_id")
        .select("ep.episode_request_id")
        .where((eb) =>
          eb.or([eb("p.owner_user_id", "=", owner), eb("pl.owner_user_id", "=", owner)]),
        ),
    );
  }
  if (filter.cursor) {
    const [createdAt, id] = decodeCursor(filter.cursor, ["query", "cursor"]);
    if (createdAt === undefined || id === undefined)
      throw invalidInput(
        ["query", "cursor"],
        "not a cursor returned by this endpoint",
        "value_error",
        filter.cursor,
      );
    q = q.where((eb) =>
      eb.or([
        eb("created_at", "<", createdAt),
        eb.and([eb("created_at", "=", createdAt), eb("id", "<", id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit + 1)
    .offset(filter.offset ?? 0)
    .execute();
  const page = rows.slice(0, filter.limit);
  const last = page[page.length - 1];
  const next = rows.length > filter.limit && last ? encodeCursor([last.created_at, last.id]) : null;
  return {
    entries: await episodeViews(db, page),
    next_cursor: next,
  };
}

export async function listEpisodeChanges(
  db: Kysely<Database>,
  identity: Identity,
  cursor: string | undefined,
  limit: number,
) {
  let after = 0;
  if (cursor) {
    const [seq] = decodeCursor(cursor, ["query", "cursor"]);
    after = Number(seq);
    if (!Number.isInteger(after))
      throw invalidInput(
        ["query", "cursor"],
        "not a cursor returned by this endpoint",
        "value_error",
        cursor,
      );
  }
  const rows = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("change_seq", ">", after)
    .where("id", "in", visibleEpisodeIds(db, identity))
    .orderBy("change_seq")
    .limit(limit)
    .execute();
  const last = rows[rows.length - 1];
  // The cursor always moves forward, so a caller polling an idle feed keeps its place.
  return {
    entries: await episodeViews(db, rows),
    next_cursor: encodeCursor([String(last ? last.change_seq : after)]),
  };
}

export async function readArtifact(
  db: Kysely<Database>,
  blobs: BlobStore,
  episodeId: string,
  name: string,
): Promise<Buffer> {
  const row = await db
    .selectFrom("artifacts")
    .select(["sha256"])
    .where("episode_request_id", "=", episodeId)
    .where("name", "=", name)
    .executeTakeFirst();
  const bytes = row ? await blobs.get(row.sha256) : null;
  if (!bytes) {
    const episode = await db
      .selectFrom("episode_requests")
      .select("artifacts_expired_at")
      .where("id", "=", episodeId)
      .executeTakeFirst();
    if (episode?.artifacts_expired_at) throw artifactsExpired(episodeId);
    throw notFound(`artifact ${name} of episode request`, episodeId);
  }
  return bytes;
}

/** The spec and game-config artifacts are derived from the request itself. */
export async function derivedArtifact(
  db: Kysely<Database>,
  row: EpisodeRequestsTable,
  name: "spec" | "game-config",
): Promise<Buffer> {
  if (name === "game-config")
    return Buffer.from(JSON.stringify(parseJson(row.game_config), null, 2));
  const [view] = await episodeViews(db, [row]);
  return Buffer.from(
    JSON.stringify(
      {
        coworld_id: row.coworld_id,
        game_config: parseJson(row.game_config),
        seed: row.seed,
        participants: view?.participants ?? [],
      },
      null,
      2,
    ),
  );
}

function numbersOnly(fields: Record<string, unknown>): Record<string, number> {
  const numbers: Record<string, number> = {};
  for (const [k, v] of Object.entries(fields))
    if (typeof v === "number" && Number.isFinite(v)) numbers[k] = v;
  return numbers;
}

export async function episodeStats(db: Kysely<Database>, row: EpisodeRequestsTable) {
  if (row.status !== "completed" || !row.results)
    throw notFound("episode stats (the episode has not completed) of", row.id);
  const results = parseJson<Record<string, unknown>>(row.results);
  const [view] = await episodeViews(db, [row]);
  const scores = parseJson<number[]>(row.scores);
  const {
    scores: _omit,
    policy_agents: uploadedAgents,
    policy_metrics: uploadedPolicyMetrics,
    ...gameStats
  } = results;
  const uploaded = row.purpose === "upload";
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const steps =
    typeof results.steps === "number"
      ? results.steps
      : typeof results.turns === "number"
        ? results.turns
        : null;
  // Bulk-uploaded episodes carry their agents' rewards and metrics per seat.
  const agentsBySeat = Array.isArray(uploadedAgents)
    ? (uploadedAgents as { agent_id: number; reward: number; metrics: Record<string, number> }[][])
    : null;
  const policyMetrics = Array.isArray(uploadedPolicyMetrics)
    ? (uploadedPolicyMetrics as Record<string, number>[])
    : [];
  return {
    // Game statistics are numbers only (clients parse the map as such: a draw's
    // `winner_slot: null` must not break them); the rest stays readable under `results`. An
    // uploaded episode's results are what its file said, served under `upload`.
    game_stats: uploaded ? {} : numbersOnly(gameStats),
    results: uploaded ? null : gameStats,
    upload: uploaded
      ? {
          source_episode_id: str(results.source_episode_id) ?? "",
          primary_policy_version_id: str(results.primary_policy_version_id),
          replay_url: str(results.replay_url),
          thumbnail_url: str(results.thumbnail_url),
          attributes:
            results.attributes && typeof results.attributes === "object"
              ? (results.attributes as Record<string, unknown>)
              : null,
          eval_task_id: str(results.eval_task_id),
          tags:
            results.tags && typeof results.tags === "object"
              ? (results.tags as Record<string, string>)
              : {},
        }
      : null,
    policy_stats: (view?.participants ?? []).map((p) => {
      const agents = agentsBySeat?.[p.position] ?? [
        { agent_id: 0, reward: scores[p.position] ?? null, metrics: {} },
      ];
      const avg: Record<string, number> = {};
      for (const agent of agents)
        for (const [k, v] of Object.entries(agent.metrics))
          avg[k] = (avg[k] ?? 0) + v / agents.length;
      return {
        position: p.position,
        policy_version_id: p.policy_version_id,
        policy_name: p.policy_name,
        policy_version: p.version,
        num_agents: agents.length,
        avg_metrics: avg,
        avg_reward: agentsBySeat
          ? agents.reduce((sum, a) => sum + (a.reward ?? 0), 0) / Math.max(1, agents.length)
          : (scores[p.position] ?? null),
        agents,
        policy_metrics: policyMetrics[p.position] ?? {},
      };
    }),
    steps: steps === null ? null : Math.trunc(steps),
  };
}

export async function policyArtifacts(db: Kysely<Database>, row: EpisodeRequestsTable) {
  const [view] = await episodeViews(db, [row]);
  const names = new Set(
    (
      await db
        .selectFrom("artifacts")
        .select("name")
        .where("episode_request_id", "=", row.id)
        .execute()
    ).map((a) => a.name),
  );
  return (view?.participants ?? []).map((p) => ({
    position: p.position,
    policy_version_id: p.policy_version_id,
    policy_name: p.policy_name,
    has_log: names.has(`policy-log-${p.position}`),
    has_artifact: names.has(`policy-artifact-${p.position}`),
  }));
}

/**
 * Whether `identity` may read the episode's game log (`logs`): access/episodes.ts canReadGameLog.
 */
export async function canReadGameLog(
  db: Kysely<Database>,
  identity: Identity,
  row: EpisodeRequestsTable,
): Promise<boolean> {
  const coworld = await db
    .selectFrom("coworlds")
    .select("owner_user_id")
    .where("id", "=", row.coworld_id)
    .executeTakeFirst();
  return canReadGameLogOf(identity, {
    requesterUserId: row.requester_user_id,
    coworldOwnerId: coworld?.owner_user_id ?? null,
  });
}

/** Refuses a game-log read to whoever may not make it: 404 to anonymous callers, 403 to other users. */
export async function assertGameLogReader(
  db: Kysely<Database>,
  identity: Identity,
  row: EpisodeRequestsTable,
): Promise<void> {
  if (await canReadGameLog(db, identity, row)) return;
  if (!isAuthenticated(identity)) throw notFound("game log of episode request", row.id);
  throw forbidden("Only the coworld's owner, the requester or an admin reads the game log.");
}

/** A seat's own files (its log, its artifact): access/episodes.ts canReadSeat. */
async function assertSeatReader(
  db: Kysely<Database>,
  identity: Identity,
  row: EpisodeRequestsTable,
  policyVersionId: string,
  idx: number,
  what: string,
): Promise<void> {
  const seat = await db
    .selectFrom("episode_participants as ep")
    .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
    .leftJoin("policies as p", "p.id", "pv.policy_id")
    .select(["ep.policy_version_id", "p.owner_user_id"])
    .where("ep.episode_request_id", "=", row.id)
    .where("ep.position", "=", idx)
    .executeTakeFirst();
  if (!seat || (seat.policy_version_id ?? "bundled") !== policyVersionId)
    throw notFound(`seat ${idx} with policy version ${policyVersionId} in episode request`, row.id);
  if (!canReadSeat(identity, row, seat)) {
    if (!isAuthenticated(identity))
      throw notFound(`${what} of seat ${idx} in episode request`, row.id);
    throw forbidden(
      `Only the owner of this seat's policy (the requester, for a seat without one) or an admin reads its ${what}.`,
    );
  }
}

/** A seat's log. */
export async function policyLog(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  row: EpisodeRequestsTable,
  policyVersionId: string,
  idx: number,
): Promise<string> {
  await assertSeatReader(db, identity, row, policyVersionId, idx, "policy log");
  return (await readArtifact(db, blobs, row.id, `policy-log-${idx}`)).toString("utf8");
}

/** What a seat's player uploaded to its artifact address (404 when it uploaded nothing). */
export async function policyArtifact(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  row: EpisodeRequestsTable,
  policyVersionId: string,
  idx: number,
): Promise<Buffer> {
  await assertSeatReader(db, identity, row, policyVersionId, idx, "artifact");
  return readArtifact(db, blobs, row.id, `policy-artifact-${idx}`);
}
