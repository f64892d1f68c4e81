// Episode requests as their readers see them: one by id (404 to whoever may not see it), the
// views with their seats, and the lists by filter and by change (cursors over a change seq).
import type { Kysely } from "kysely";

import {
  type EpisodeCpu,
  type EpisodeParticipant,
  type EpisodeRequest,
  type EpisodeSource,
  type QueryOf,
} from "@gauntlet/core";

import { canSeeEpisode, episodeFacts, visibleEpisodeIds } from "../access/episodes.ts";
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import { parseJson } from "../shared/clock.ts";
import { invalidInput, notFound, unauthorized } from "../shared/errors.ts";
import type { Database, EpisodeParticipantsTable, EpisodeRequestsTable } from "../store/schema.ts";

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
