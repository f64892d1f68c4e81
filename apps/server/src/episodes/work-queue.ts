// The runner work queue's leases: a lease takes jobs in the fair order (fair-order.ts: by share of class, then requester, then
// age), not by age alone. Claims are conditional updates (`… where status = 'queued'`), so with several replicas on
// one database a job is leased by exactly one of them; completion is idempotent. A lease
// answers a secret of its own (kept hashed): every later report on the job must come from the
// machine that holds the lease and present that secret, so neither a machine token alone (which
// an episode might find) nor another runner nor a stale lease can report on it
// (job-lease-proof.ts). Expired leases go back to the queue here; heartbeats, artifacts,
// completion and failure have files of their own (heartbeat.ts, job-completion.ts, job-failure.ts).
import { randomBytes } from "node:crypto";

import type { Kysely, Transaction } from "kysely";

import { CoworldManifest, type Isolation, type LeasedJob } from "@gauntlet/core";

import { hashToken } from "../auth/secrets.ts";
import { isStoreConflict } from "../http/store-unavailable.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type { Database, JobsTable } from "../store/schema.ts";
import { resolveOverlay } from "./config-overlay.ts";
import { touchEpisode } from "./episodes.ts";
import { endedSince, queuedCandidates, runningCounts, type LeaseLane } from "./fair-lease.ts";
import { contentionSince, FairOrder } from "./fair-order.ts";
import { secretsForGame } from "./game-secrets.ts";
import { errorInfo, putArtifactRow, setCertification } from "./job-records.ts";
import { stateForLease } from "./player-state.ts";
import type { QueueDeps } from "./queue-deps.ts";
import { leaseSeconds } from "./queue-settings.ts";
import { DEFAULT_QUEUE_SHARES } from "./queue-shares.ts";

/** Returns expired leases to the queue, or fails their episode when attempts are used up. */
export async function expireLeases(deps: QueueDeps, now = new Date()): Promise<number> {
  const expired = await deps.db
    .selectFrom("jobs")
    .selectAll()
    .where("status", "=", "leased")
    .where("lease_expires_at", "<", now.toISOString())
    .execute();
  let changed = 0;
  for (const job of expired) {
    const final = job.attempts >= job.max_attempts;
    const error = `the runner stopped reporting ${job.attempts} time(s); the lease expired`;
    const info = final
      ? await deps.blobs.put(
          errorInfo({ error_type: "infrastructure", error, failed_policy_index: null }),
        )
      : null;
    const settled = await deps.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable("jobs")
        .set({
          status: final ? "failed" : "queued",
          lease_owner: null,
          lease_expires_at: null,
          updated_at: nowIso(),
        })
        .where("id", "=", job.id)
        .where("status", "=", "leased")
        .where("lease_expires_at", "=", job.lease_expires_at)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      if (info) {
        // A lost runner is nobody's fault: the episode counts for nobody.
        await touchEpisode(trx, job.episode_request_id, {
          status: "failed",
          error_type: "infrastructure",
          error,
          failed_policy_index: null,
        });
        await setCertification(trx, job.episode_request_id, "failed", error);
        await putArtifactRow(trx, job.episode_request_id, "error-info", info, true);
      } else {
        await touchEpisode(trx, job.episode_request_id, { status: "submitted" });
      }
      return true;
    });
    if (settled) {
      changed += 1;
      if (final)
        deps.onSettled?.({
          episodeRequestId: job.episode_request_id,
          status: "failed",
          purpose: "",
        });
    }
  }
  return changed;
}

async function leasedJob(deps: QueueDeps, job: JobsTable): Promise<Omit<LeasedJob, "lease_token">> {
  const { db } = deps;
  const episode = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("id", "=", job.episode_request_id)
    .executeTakeFirstOrThrow();
  const coworld = await db
    .selectFrom("coworlds")
    .selectAll()
    .where("id", "=", episode.coworld_id)
    .executeTakeFirstOrThrow();
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const seats = await db
    .selectFrom("episode_participants as ep")
    .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
    .leftJoin("uploads as u", "u.id", "pv.bundle_upload_id")
    .leftJoin("container_images as ci", "ci.id", "pv.container_image_id")
    .leftJoin("policy_secret_envs as se", "se.id", "pv.secret_env_id")
    .select([
      "ep.position",
      "ep.bundled_player_id",
      "ep.policy_version_id",
      "ep.display_name",
      "ep.human_relay",
      "pv.run",
      "u.sha256 as bundle_sha256",
      "ci.name as image",
      "se.ciphertext as secret_env",
    ])
    .where("ep.episode_request_id", "=", episode.id)
    .orderBy("ep.position")
    .execute();
  const players = seats.map((seat) => {
    if (seat.human_relay !== null) {
      // A person plays this seat: the runner relays it to the server instead of running a policy.
      const relay = parseJson<{ url: string }>(deps.box.open(seat.human_relay));
      return {
        position: seat.position,
        display_name: seat.display_name,
        runnable: { run: null, image: null, env: {} },
        bundle_sha256: null,
        secret_env: {},
        human_relay: { url: relay.url },
      };
    }
    if (seat.bundled_player_id !== null) {
      const bundled = manifest.player.find((p) => p.id === seat.bundled_player_id);
      if (!bundled)
        throw new Error(`coworld ${coworld.id} has no bundled player ${seat.bundled_player_id}`);
      return {
        position: seat.position,
        display_name: seat.display_name,
        runnable: {
          run: bundled.run ?? null,
          image: bundled.image ?? null,
          env: bundled.env ?? {},
        },
        bundle_sha256: null,
        bundled_player_id: bundled.id,
        secret_env: {},
      };
    }
    return {
      position: seat.position,
      display_name: seat.display_name,
      runnable: {
        run: seat.run ? parseJson<string[]>(seat.run) : null,
        image: seat.image ?? null,
        env: {},
      },
      bundle_sha256: seat.bundle_sha256 ?? null,
      policy_version_id: seat.policy_version_id,
      secret_env: seat.secret_env
        ? parseJson<Record<string, string>>(deps.box.open(seat.secret_env))
        : {},
    };
  });
  // A private input is resolved now, for this lease only; the episode keeps its name alone.
  const overlay = episode.config_overlay_secret
    ? await resolveOverlay(db, deps.box, coworld.name, episode.config_overlay_secret)
    : null;
  const playerState = await stateForLease(db, deps.box, episode);
  return {
    job_id: job.id,
    attempt: job.attempts,
    lease_expires_at: job.lease_expires_at ?? nowIso(),
    episode_request_id: episode.id,
    coworld: {
      id: coworld.id,
      name: coworld.name,
      version: coworld.version,
      bundle_sha256: coworld.bundle_sha256,
    },
    manifest: parseJson(coworld.manifest),
    game_config: parseJson(episode.game_config),
    players,
    secrets: await secretsForGame(db, deps.box, coworld.name),
    ...(overlay && "overrides" in overlay ? { game_config_overlay: overlay.overrides } : {}),
    ...(overlay && "error" in overlay ? { game_config_overlay_error: overlay.error } : {}),
    deadline_ms: job.deadline_ms,
    ...(playerState ? { player_state: playerState } : {}),
  };
}

export async function lease(
  deps: QueueDeps,
  machineId: string,
  runnerId: string,
  capacity: number,
  runtimes: string[],
  isolation: Isolation | null = null,
  now = new Date(),
  interactiveCapacity?: number,
): Promise<LeasedJob[]> {
  await expireLeases(deps, now);
  // Without lanes every job counts against `capacity`; with them, each lane against its own.
  const lanes: { lane: LeaseLane; capacity: number }[] =
    interactiveCapacity === undefined
      ? [{ lane: "any", capacity }]
      : [
          { lane: "batch", capacity },
          { lane: "interactive", capacity: interactiveCapacity },
        ];
  const leased: LeasedJob[] = [];
  for (const { lane, capacity: slots } of lanes) {
    if (slots <= 0) continue;
    const [running, candidates] = await Promise.all([
      runningCounts(deps.db, lane),
      queuedCandidates(deps.db, { lane, runtimes, isolation }, slots),
    ]);
    const ended = await endedSince(deps.db, lane, contentionSince(candidates, now));
    const order = new FairOrder(deps.shares ?? DEFAULT_QUEUE_SHARES, running, candidates, {
      ended,
    });
    const rows = new Map(candidates.map((c) => [c.id, c]));
    let taken = 0;
    // Each free slot takes the job the fair order names; one another replica claimed first is
    // passed over, and the slot goes to the next in the order.
    for (let next = order.peek(); next && taken < slots; next = order.peek()) {
      const row = rows.get(next.id);
      const job = row ? await claimJob(deps, machineId, runnerId, row, now, isolation) : null;
      if (job) {
        order.take(next);
        leased.push(job);
        taken += 1;
      } else order.drop(next);
    }
  }
  return leased;
}

/** Leases one queued job by a conditional update: null when another lease got it first. */
async function claimJob(
  deps: QueueDeps,
  machineId: string,
  runnerId: string,
  job: JobsTable,
  now: Date,
  isolation: Isolation | null,
): Promise<LeasedJob | null> {
  const expires = new Date(now.getTime() + leaseSeconds() * 1000).toISOString();
  const token = randomBytes(32).toString("base64url");
  // Aborted for a concurrent change (a cancel of the same episode, on PostgreSQL): the job is
  // left as it was and passed over, as one another lease claimed first.
  const claimed = await claimTransaction(deps, async (trx) => {
    const res = await trx
      .updateTable("jobs")
      .set({
        status: "leased",
        lease_owner: `${machineId}/${runnerId}`,
        lease_machine_id: machineId,
        lease_token_hash: hashToken(token),
        lease_expires_at: expires,
        isolation,
        leased_at: now.toISOString(),
        attempts: job.attempts + 1,
        updated_at: nowIso(),
      })
      .where("id", "=", job.id)
      .where("status", "=", "queued")
      .where("attempts", "=", job.attempts)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    await touchEpisode(trx, job.episode_request_id, { status: "running" });
    await setCertification(trx, job.episode_request_id, "certifying", null);
    return {
      ...job,
      status: "leased" as const,
      lease_expires_at: expires,
      isolation,
      leased_at: now.toISOString(),
      attempts: job.attempts + 1,
    };
  });
  return claimed ? { ...(await leasedJob(deps, claimed)), lease_token: token } : null;
}

async function claimTransaction<T>(
  deps: QueueDeps,
  work: (trx: Transaction<Database>) => Promise<T | null>,
): Promise<T | null> {
  try {
    return await deps.db.transaction().execute(work);
  } catch (error) {
    if (isStoreConflict(error)) return null;
    throw error;
  }
}

/**
 * Whether `sha256` is a bundle of a job that `machineId` holds a lease on — its coworld's or a
 * seat's policy's. A runner downloads what it runs, not any user's bundle by its hash.
 */
export async function leaseHoldsBlob(
  db: Kysely<Database>,
  machineId: string,
  sha256: string,
): Promise<boolean> {
  const coworld = await db
    .selectFrom("jobs as j")
    .innerJoin("episode_requests as e", "e.id", "j.episode_request_id")
    .innerJoin("coworlds as c", "c.id", "e.coworld_id")
    .select("j.id")
    .where("j.status", "=", "leased")
    .where("j.lease_machine_id", "=", machineId)
    .where("c.bundle_sha256", "=", sha256)
    .limit(1)
    .executeTakeFirst();
  if (coworld) return true;
  // A commissioner job runs its coworld's files too.
  const commissioner = await db
    .selectFrom("commissioner_jobs as j")
    .innerJoin("coworlds as c", "c.id", "j.coworld_id")
    .select("j.id")
    .where("j.status", "=", "leased")
    .where("j.lease_machine_id", "=", machineId)
    .where("c.bundle_sha256", "=", sha256)
    .limit(1)
    .executeTakeFirst();
  if (commissioner) return true;
  const policy = await db
    .selectFrom("jobs as j")
    .innerJoin("episode_participants as ep", "ep.episode_request_id", "j.episode_request_id")
    .innerJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
    .innerJoin("uploads as u", "u.id", "pv.bundle_upload_id")
    .select("j.id")
    .where("j.status", "=", "leased")
    .where("j.lease_machine_id", "=", machineId)
    .where("u.sha256", "=", sha256)
    .limit(1)
    .executeTakeFirst();
  return policy !== undefined;
}
