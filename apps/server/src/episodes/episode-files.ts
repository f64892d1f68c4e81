// An episode's files and figures: its artifacts (kept, or derived from its results), its stats,
// the game's log and each seat's log and artifact for those allowed to read them.
import type { Kysely } from "kysely";

import { canReadGameLog as canReadGameLogOf, canReadSeat } from "../access/episodes.ts";
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { parseJson } from "../shared/clock.ts";
import { artifactsExpired, forbidden, notFound } from "../shared/errors.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";
import { episodeViews } from "./episode-reads.ts";

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
