// Episode requests of league rounds as cogames' matches: the league's list, one match, and a
// policy version's seat logs and artifacts in it, read under the episodes' own rules.
import type { Kysely } from "kysely";

import {
  uuidPattern,
  type EpisodeRequest,
  type ParamsOf,
  type QueryOf,
  type SeasonMatch,
} from "@gauntlet/core";

import { visibleEpisodeIds } from "../access/episodes.ts";
import type { Identity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import {
  derivedArtifact,
  policyArtifact,
  policyLog,
  readArtifact,
} from "../episodes/episode-files.ts";
import { episodeViews, getEpisodeRow } from "../episodes/episode-reads.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";
import { bareId, episodeRequestIdOf, refOf, seasonLeague, seasonPolicyRefs } from "./refs.ts";

const STATUS: Record<EpisodeRequest["status"], SeasonMatch["status"]> = {
  pending: "pending",
  submitted: "pending",
  running: "running",
  completed: "completed",
  failed: "failed",
  cancelled: "failed",
};

const uuidOrNull = (id: string | null) => (id !== null && uuidPattern.test(id) ? id : null);

async function matchViews(
  db: Kysely<Database>,
  rows: EpisodeRequestsTable[],
): Promise<SeasonMatch[]> {
  const views = await episodeViews(db, rows);
  const divisionIds = [...new Set(rows.flatMap((r) => (r.division_id ? [r.division_id] : [])))];
  const divisions = new Map(
    divisionIds.length
      ? (
          await db
            .selectFrom("divisions")
            .select(["id", "name"])
            .where("id", "in", divisionIds)
            .execute()
        ).map((d) => [d.id, d.name])
      : [],
  );
  const refs = await seasonPolicyRefs(
    db,
    views.flatMap((v) => v.policy_version_ids),
  );
  return views.map((view, i) => {
    const row = rows[i];
    // One player per policy version, in seat order; a seat with no version (a bundled player) has none.
    const order: string[] = [];
    for (const id of view.policy_version_ids)
      if (id !== null && !order.includes(id)) order.push(id);
    const scoreOf = (id: string) => {
      const own = view.scores.filter((s) => s.policy_version_id === id).map((s) => s.score);
      return own.length ? own.reduce((a, b) => a + b, 0) / own.length : null;
    };
    return {
      id: bareId(view.id),
      season_name: row?.league_id ?? "",
      pool_name: (row?.division_id ? divisions.get(row.division_id) : undefined) ?? "",
      status: STATUS[view.status],
      assignments: view.policy_version_ids.map((id) => (id === null ? -1 : order.indexOf(id))),
      players: order.map((id) => ({
        policy: refOf(refs, id),
        num_agents: view.policy_version_ids.filter((p) => p === id).length,
        score: scoreOf(id),
      })),
      error: view.error,
      error_type: view.error_type,
      episode_id: uuidOrNull(view.episode_id),
      job_id: uuidOrNull(view.job_id),
      created_at: view.created_at,
    };
  });
}

export async function seasonMatches(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
  query: QueryOf<"listSeasonMatches">,
): Promise<SeasonMatch[]> {
  const league = await seasonLeague(db, identity, ref);
  let q = db
    .selectFrom("episode_requests")
    .selectAll()
    .where("league_id", "=", league.id)
    .where("id", "in", visibleEpisodeIds(db, identity));
  if (query.policy_version_ids?.length)
    q = q.where(
      "id",
      "in",
      db
        .selectFrom("episode_participants")
        .select("episode_request_id")
        .where("policy_version_id", "in", query.policy_version_ids),
    );
  const rows = await q
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .execute();
  return matchViews(db, rows);
}

/** The episode request a match id names, if it belongs to a league and the caller may see it. */
async function matchRow(
  db: Kysely<Database>,
  identity: Identity,
  matchId: string,
): Promise<EpisodeRequestsTable> {
  const row = await getEpisodeRow(db, identity, episodeRequestIdOf(matchId));
  if (row.league_id === null) throw notFound("match", matchId);
  return row;
}

export async function seasonMatch(
  db: Kysely<Database>,
  identity: Identity,
  matchId: string,
): Promise<SeasonMatch> {
  const [view] = await matchViews(db, [await matchRow(db, identity, matchId)]);
  if (!view) throw new Error("unreachable: one row gives one view");
  return view;
}

/** The seats the version holds in the match. */
async function seatsOf(db: Kysely<Database>, row: EpisodeRequestsTable, policyVersionId: string) {
  const seats = await db
    .selectFrom("episode_participants")
    .select("position")
    .where("episode_request_id", "=", row.id)
    .where("policy_version_id", "=", policyVersionId)
    .orderBy("position")
    .execute();
  if (seats.length === 0)
    throw notFound(`policy version ${policyVersionId} in match`, bareId(row.id));
  return seats.map((s) => s.position);
}

/** `policy_agent_<seat>.txt` for each of the version's seats with a log the caller may read. */
export async function matchPolicyLogs(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  matchId: string,
  policyVersionId: string,
): Promise<string[]> {
  const row = await matchRow(db, identity, matchId);
  const names: string[] = [];
  for (const seat of await seatsOf(db, row, policyVersionId)) {
    // policyLog applies the seat rule (the version's owner, or an admin): a refusal is raised.
    const has = await db
      .selectFrom("artifacts")
      .select("name")
      .where("episode_request_id", "=", row.id)
      .where("name", "=", `policy-log-${seat}`)
      .executeTakeFirst();
    if (!has) continue;
    await policyLog(db, blobs, identity, row, policyVersionId, seat);
    names.push(`policy_agent_${seat}.txt`);
  }
  return names;
}

export async function matchPolicyLog(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  params: ParamsOf<"getSeasonMatchPolicyLog">,
): Promise<string> {
  const row = await matchRow(db, identity, params.match_id);
  return policyLog(db, blobs, identity, row, params.policy_version_id, params.agent_idx);
}

export async function matchArtifact(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  params: ParamsOf<"getSeasonMatchArtifact">,
): Promise<Buffer> {
  const row = await matchRow(db, identity, params.match_id);
  const [seat] = await seatsOf(db, row, params.policy_version_id);
  const type = params.artifact_type;
  if (seat === undefined) throw notFound("seat of match", params.match_id);
  if (type === "logs")
    return Buffer.from(await policyLog(db, blobs, identity, row, params.policy_version_id, seat));
  if (type === "policy-artifact")
    return policyArtifact(db, blobs, identity, row, params.policy_version_id, seat);
  if (type === "spec" || type === "game-config" || type === "game_config")
    return derivedArtifact(db, row, type === "spec" ? "spec" : "game-config");
  return readArtifact(db, blobs, row.id, type === "error_info" ? "error-info" : type);
}
