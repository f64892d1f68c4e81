// Episode requests: creation (with their job), cancellation and state changes. Reads and lists
// are in episode-reads.ts; artifacts, stats and logs in episode-files.ts.
import { randomUUID } from "node:crypto";

import type { Transaction } from "kysely";

import { EpisodeTimeoutMinutes, newId } from "@gauntlet/core";

import { nowIso, parseJson } from "../shared/clock.ts";
import { nextValue } from "../shared/counters.ts";
import type { CoworldsTable, Database, EpisodeRequestsTable } from "../store/schema.ts";
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
  /** The coworld secret holding the episode's private config overlay (config-overlay.ts). */
  configOverlaySecret?: string | null;
  /** JSON EpisodeState (player-state.ts): whose state each seat plays with. */
  state?: string | null;
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
      config_overlay_secret: input.configOverlaySecret ?? null,
      state: input.state ?? null,
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
  return (await cancelEpisodes(trx, [id], reason)) === 1;
}

/**
 * Cancels the episodes of `ids` that have not ended; answers how many. Every job is withdrawn in
 * one statement before any episode takes the change counter: a lease holds its job's row while
 * it waits for that counter, so a cancel that took the counter first and then waited for a job
 * deadlocked with it on PostgreSQL (the lease answered 500).
 */
export async function cancelEpisodes(
  trx: Transaction<Database>,
  ids: readonly string[],
  reason: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const open = await trx
    .selectFrom("episode_requests")
    .select("id")
    .where("id", "in", ids)
    .where("status", "not in", ["completed", "failed", "cancelled"])
    .orderBy("id")
    .execute();
  if (open.length === 0) return 0;
  await trx
    .updateTable("jobs")
    .set({ status: "cancelled", updated_at: nowIso() })
    .where(
      "episode_request_id",
      "in",
      open.map((e) => e.id),
    )
    .where("status", "in", ["queued", "leased"])
    .execute();
  // An episode a runner completed while the withdrawal waited for its job's row is final by now:
  // its status is checked again (on PostgreSQL the update reads the row as committed), so the
  // runner's result is kept, not overwritten with a cancel.
  let cancelled = 0;
  for (const e of open) {
    const res = await trx
      .updateTable("episode_requests")
      .set({
        status: "cancelled",
        error_type: "cancelled",
        error: reason,
        change_seq: await nextValue(trx, EPISODE_CHANGES),
        updated_at: nowIso(),
      })
      .where("id", "=", e.id)
      .where("status", "not in", ["completed", "failed", "cancelled"])
      .executeTakeFirst();
    cancelled += Number(res.numUpdatedRows);
  }
  return cancelled;
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
