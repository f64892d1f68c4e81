// cogames' episodes (`/episodes`, `/stats/episodes/query`): completed episode requests, named
// by their UUID, with results per policy version and tags. An uploaded episode's tags, replay,
// thumbnail, attributes and primary version are what its file said; an episode run here is
// tagged with where it was played.
import type { Kysely, SelectQueryBuilder } from "kysely";

import {
  idPrefixes,
  uuidPattern,
  type CogamesEpisode,
  type EpisodeWithTags,
  type QueryOf,
} from "@gauntlet/core";

import { visibleEpisodeIds } from "../access/episodes.ts";
import type { Identity } from "../auth/identity.ts";
import { episodeStats } from "../episodes/episode-files.ts";
import { getEpisodeRow } from "../episodes/episode-reads.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";

const PREFIX = idPrefixes.episodeRequest;
/** Rows read per pass while filtering by tags (which live in the results' JSON). */
const SCAN_BATCH = 500;

const uuidOf = (id: string) => id.slice(PREFIX.length);
const str = (v: unknown) => (typeof v === "string" ? v : null);

interface Facts {
  row: EpisodeRequestsTable;
  results: Record<string, unknown>;
  uploaded: boolean;
  tags: Record<string, string>;
}

function factsOf(row: EpisodeRequestsTable): Facts {
  const results = row.results ? parseJson<Record<string, unknown>>(row.results) : {};
  const uploaded = row.purpose === "upload";
  const own: Record<string, string> = { purpose: row.purpose, coworld_id: row.coworld_id };
  for (const key of ["league_id", "division_id", "round_id", "job_id"] as const) {
    const value = row[key];
    if (value) own[key] = value;
  }
  const fileTags =
    uploaded && results.tags && typeof results.tags === "object"
      ? (results.tags as Record<string, string>)
      : {};
  return { row, results, uploaded, tags: { ...own, ...fileTags } };
}

/**
 * An episode as cogames reads it, and the path of the replay this server serves it (null for an
 * uploaded episode, whose `replay_url` is the uploader's own): the route makes the path absolute
 * and puts it in `replay_url`.
 */
export interface ServedEpisode<T> {
  episode: T;
  replayPath: string | null;
}

const replayPathOf = (f: Facts): string | null =>
  f.uploaded ? null : `/v2/episode-requests/${f.row.id}/artifacts/replay`;

/** The uploader's replay address; a served replay's is set by the route from its path. */
const uploadedReplayUrl = (f: Facts): string | null =>
  f.uploaded ? str(f.results.replay_url) : null;

type Rows = SelectQueryBuilder<Database, "episode_requests", EpisodeRequestsTable>;

/** Completed episodes the caller may see, newest first, that `keep` takes: offset, then limit. */
async function scan(
  db: Kysely<Database>,
  identity: Identity,
  narrow: (q: Rows) => Rows,
  keep: (f: Facts) => boolean,
  offset: number,
  limit: number,
): Promise<Facts[]> {
  const out: Facts[] = [];
  let skipped = 0;
  for (let from = 0; out.length < limit; from += SCAN_BATCH) {
    const rows = await narrow(
      db
        .selectFrom("episode_requests")
        .selectAll()
        .where("status", "=", "completed")
        .where("results", "is not", null)
        .where("id", "in", visibleEpisodeIds(db, identity)),
    )
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(SCAN_BATCH)
      .offset(from)
      .execute();
    for (const row of rows) {
      const f = factsOf(row);
      if (!keep(f)) continue;
      if (skipped < offset) skipped += 1;
      else if (out.length < limit) out.push(f);
    }
    if (rows.length < SCAN_BATCH) break;
  }
  return out;
}

const seating = (db: Kysely<Database>, versions: string[]) =>
  db
    .selectFrom("episode_participants")
    .select("episode_request_id")
    .where("policy_version_id", "in", versions);

async function toEpisode(db: Kysely<Database>, f: Facts): Promise<ServedEpisode<CogamesEpisode>> {
  const stats = await episodeStats(db, f.row);
  const episode: CogamesEpisode = {
    id: uuidOf(f.row.id),
    replay_url: uploadedReplayUrl(f),
    thumbnail_url: f.uploaded ? str(f.results.thumbnail_url) : null,
    tags: f.tags,
    game_stats: stats.game_stats,
    policy_results: stats.policy_stats.flatMap((p) =>
      p.policy_version_id === null
        ? []
        : [
            {
              position: p.position,
              policy: {
                id: p.policy_version_id,
                name: p.policy_name,
                version: p.policy_version ?? 0,
              },
              num_agents: p.num_agents,
              avg_reward: p.avg_reward ?? 0,
              avg_metrics: p.avg_metrics,
              agents: p.agents.map((a) => ({ ...a, reward: a.reward ?? 0 })),
            },
          ],
    ),
    steps: stats.steps,
    created_at: f.row.created_at,
  };
  return { episode, replayPath: replayPathOf(f) };
}

/** `key:value,key:value` — an episode matches when it has every pair. */
function parseTagFilter(tags: string | undefined): [string, string][] {
  if (!tags) return [];
  return tags
    .split(",")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "")
    .map((pair) => {
      const at = pair.indexOf(":");
      return at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    });
}

export async function listCogamesEpisodes(
  db: Kysely<Database>,
  identity: Identity,
  query: QueryOf<"listCogamesEpisodes">,
): Promise<ServedEpisode<CogamesEpisode>[]> {
  const pairs = parseTagFilter(query.tags);
  const version = query.policy_version_id;
  const found = await scan(
    db,
    identity,
    (q) => (version ? q.where("id", "in", seating(db, [version])) : q),
    (f) => pairs.every(([k, v]) => f.tags[k] === v),
    query.offset,
    query.limit,
  );
  return Promise.all(found.map((f) => toEpisode(db, f)));
}

export async function getCogamesEpisode(
  db: Kysely<Database>,
  identity: Identity,
  uuid: string,
): Promise<ServedEpisode<CogamesEpisode>> {
  const row = await getEpisodeRow(db, identity, `${PREFIX}${uuid}`);
  return toEpisode(db, factsOf(row));
}

export async function queryEpisodes(
  db: Kysely<Database>,
  identity: Identity,
  body: {
    primary_policy_version_ids?: string[] | undefined;
    episode_ids?: string[] | undefined;
    tag_filters?: Record<string, string[] | null> | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ episodes: ServedEpisode<EpisodeWithTags>[] }> {
  const primaries = body.primary_policy_version_ids;
  const ids = body.episode_ids;
  const filters = Object.entries(body.tag_filters ?? {});
  if (primaries?.length === 0 || ids?.length === 0) return { episodes: [] };
  const found = await scan(
    db,
    identity,
    (q) => {
      let narrowed = q;
      if (ids)
        narrowed = narrowed.where(
          "id",
          "in",
          ids.map((id) => `${PREFIX}${id}`),
        );
      // A primary version is always seated (uploads check it), so seating narrows first.
      if (primaries) narrowed = narrowed.where("id", "in", seating(db, primaries));
      return narrowed;
    },
    (f) => {
      if (primaries && f.uploaded) {
        const primary = str(f.results.primary_policy_version_id);
        if (primary === null || !primaries.includes(primary)) return false;
      }
      return filters.every(([key, values]) =>
        values === null ? key in f.tags : values.includes(f.tags[key] ?? "\u0000"),
      );
    },
    body.offset,
    body.limit,
  );
  const episodes = await Promise.all(
    found.map(async (f): Promise<ServedEpisode<EpisodeWithTags>> => {
      const stats = await episodeStats(db, f.row);
      const avg: Record<string, number> = {};
      for (const p of stats.policy_stats)
        if (p.policy_version_id !== null && p.avg_reward !== null)
          avg[p.policy_version_id] = p.avg_reward;
      const evalTask = str(f.results.eval_task_id);
      const episode: EpisodeWithTags = {
        id: uuidOf(f.row.id),
        replay_url: uploadedReplayUrl(f),
        thumbnail_url: f.uploaded ? str(f.results.thumbnail_url) : null,
        attributes:
          f.uploaded && f.results.attributes && typeof f.results.attributes === "object"
            ? (f.results.attributes as Record<string, unknown>)
            : null,
        // cogames reads a UUID here; another file's task name stays in the episode's stats.
        eval_task_id: evalTask !== null && uuidPattern.test(evalTask) ? evalTask : null,
        created_at: f.row.created_at,
        tags: f.tags,
        avg_rewards: avg,
        job_id: f.row.job_id,
      };
      return { episode, replayPath: replayPathOf(f) };
    }),
  );
  return { episodes };
}
