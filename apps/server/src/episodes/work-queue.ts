// The runner work queue: leases with expiry, heartbeats, artifacts, completion and failure.
// A lease takes jobs in the fair order (fair-order.ts: by share of class, then requester, then
// age), not by age alone. Claims are conditional updates (`… where status = 'queued'`), so with several replicas on
// one database a job is leased by exactly one of them; completion is idempotent. A lease
// answers a secret of its own (kept hashed): every later report on the job must come from the
// machine that holds the lease and present that secret, so neither a machine token alone (which
// an episode might find) nor another runner nor a stale lease can report on it.
import { randomBytes } from "node:crypto";

import type { Kysely, Transaction } from "kysely";

import {
  CoworldManifest,
  EpisodeResults,
  type BodyOf,
  type EpisodeCpu,
  type Isolation,
  type LeasedJob,
} from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { hashToken } from "../auth/secrets.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, invalidInput, notFound, ServiceError } from "../shared/errors.ts";
import type { Database, JobsTable } from "../store/schema.ts";
import { touchEpisode } from "./episodes.ts";
import { endedSince, queuedCandidates, runningCounts, type LeaseLane } from "./fair-lease.ts";
import { contentionSince, FairOrder } from "./fair-order.ts";
import { secretsForGame } from "./game-secrets.ts";
import { DEFAULT_QUEUE_SHARES, type QueueShares } from "./queue-shares.ts";

export const LEASE_SECONDS = 30;

/**
 * A whole number of seconds from 1 to `max` in the environment variable `name`, else `fallback`
 * when it is unset or blank. Read per call, so tests can shorten it.
 */
function secondsFromEnv(
  env: Record<string, string | undefined>,
  name: string,
  max: number,
  fallback: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(
      `${name} must be a whole number of seconds from 1 to ${max}, got ${JSON.stringify(raw)}`,
    );
  return value;
}

/** The lease length: GAUNTLET_LEASE_SECONDS (1 to 3600) when set, else LEASE_SECONDS. Read per call, so tests can shorten it. */
export function leaseSeconds(env: Record<string, string | undefined> = process.env): number {
  return secondsFromEnv(env, "GAUNTLET_LEASE_SECONDS", 3600, LEASE_SECONDS);
}

export type { EpisodeSettledEvent };

export interface QueueDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
  box: SecretBox;
  onSettled?: (event: EpisodeSettledEvent) => void;
  /** The classes' weights and the per-user cap; the defaults when not given. */
  shares?: QueueShares;
}

export function assertRunner(identity: AuthenticatedIdentity): void {
  if (identity.kind !== "machine")
    throw forbidden("The work queue is for runners: use a machine token.");
}

/** Who reports on a job: the calling machine and the lease secret it presented (if any). */
export interface LeaseProof {
  machineId: string;
  token: string | undefined;
}

/**
 * Refuses a report that is not from the job's current lease: no secret (403 lease_required),
 * another machine's lease (403 lease_not_held), or a secret that is not the job's latest
 * (409 lease_stale: the lease expired into another, or never was). A job's latest lease stays
 * recorded after it ends, so its holder repeating a report gets the no-op answer, not a refusal.
 */
function assertLease(job: JobsTable, proof: LeaseProof): string {
  if (proof.token === undefined || proof.token === "")
    throw new ServiceError(
      403,
      "lease_required",
      `Reports on job ${job.id} need the lease's secret in the X-Lease-Token header (the lease_token the lease answered with).`,
    );
  if (job.lease_machine_id !== proof.machineId)
    throw new ServiceError(
      403,
      "lease_not_held",
      `Job ${job.id} is not leased by this machine; only the runner holding its lease reports on it.`,
    );
  const hash = hashToken(proof.token);
  if (job.lease_token_hash !== hash)
    throw conflict(
      `This lease of job ${job.id} is no longer current (it expired, or the job was leased again); the report was not recorded.`,
      "lease_stale",
    );
  return hash;
}

function state(job: JobsTable) {
  return {
    job_id: job.id,
    status: job.status,
    attempts: job.attempts,
    episode_request_id: job.episode_request_id,
  };
}

async function setCertification(
  trx: Transaction<Database>,
  episodeId: string,
  next: "certifying" | "certified" | "failed",
  error: string | null,
): Promise<void> {
  const episode = await trx
    .selectFrom("episode_requests")
    .select(["purpose", "coworld_id"])
    .where("id", "=", episodeId)
    .executeTakeFirst();
  if (episode?.purpose !== "certification") return;
  await trx
    .updateTable("certifications")
    .set({ state: next, error, updated_at: nowIso() })
    .where("coworld_id", "=", episode.coworld_id)
    .where("episode_request_id", "=", episodeId)
    .execute();
}

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
    deadline_ms: job.deadline_ms,
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
  const claimed = await deps.db.transaction().execute(async (trx) => {
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

async function jobRow(db: Kysely<Database>, jobId: string): Promise<JobsTable> {
  const job = await db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!job) throw notFound("job", jobId);
  return job;
}

export const JOIN_TIMEOUT_SECONDS = 120;

/** How long a live game waits for its people: GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS (1 to 86400), else 120. Read per call, so tests can shorten it. */
export function joinTimeoutSeconds(env: Record<string, string | undefined> = process.env): number {
  return secondsFromEnv(env, "GAUNTLET_PLAY_JOIN_TIMEOUT_SECONDS", 86_400, JOIN_TIMEOUT_SECONDS);
}

/** The seats of a job's live game whose person has not connected yet (none for other jobs). */
async function peopleWaiting(db: Kysely<Database>, episodeId: string): Promise<number[]> {
  const seats = await db
    .selectFrom("play_session_seats as s")
    .innerJoin("play_sessions as p", "p.id", "s.play_session_id")
    .select("s.position")
    .where("p.episode_request_id", "=", episodeId)
    .where("s.kind", "=", "human")
    .where("s.connected_at", "is", null)
    .orderBy("s.position")
    .execute();
  return seats.map((s) => s.position);
}

export async function heartbeat(
  deps: QueueDeps,
  jobId: string,
  proof: LeaseProof,
  now = new Date(),
) {
  const job = await jobRow(deps.db, jobId);
  const leaseHash = assertLease(job, proof);
  if (job.status !== "leased")
    return { lease_expires_at: job.lease_expires_at ?? now.toISOString(), cancel: true };
  const waiting = await peopleWaiting(deps.db, job.episode_request_id);
  const timeout = joinTimeoutSeconds();
  const since = job.leased_at === null ? now.getTime() : Date.parse(job.leased_at);
  const [first] = waiting;
  if (first !== undefined && now.getTime() - since > timeout * 1000) {
    // Nobody plays a game against an empty seat: it fails as the person's absence, never `completed`.
    const seats = waiting.map((p) => `seat ${p}`).join(", ");
    await failLeased(deps, job, leaseHash, {
      error_type: "player_never_connected",
      error: `the person in ${seats} never connected within the ${timeout} s join timeout; the game did not start`,
      failed_policy_index: first,
    });
    return {
      lease_expires_at: job.lease_expires_at ?? now.toISOString(),
      cancel: true,
      people_waiting: waiting.length,
    };
  }
  const expires = new Date(now.getTime() + leaseSeconds() * 1000).toISOString();
  const res = await deps.db
    .updateTable("jobs")
    .set({ lease_expires_at: expires, updated_at: nowIso() })
    .where("id", "=", jobId)
    .where("status", "=", "leased")
    .where("lease_token_hash", "=", leaseHash)
    .executeTakeFirst();
  return {
    lease_expires_at: expires,
    cancel: Number(res.numUpdatedRows) !== 1,
    people_waiting: waiting.length,
  };
}

const MEDIA_TYPES: Record<string, string> = {
  results: "application/json",
  "error-info": "application/json",
  "game-config": "application/json",
  replay: "application/octet-stream",
};

export async function storeArtifact(
  deps: QueueDeps,
  jobId: string,
  proof: LeaseProof,
  name: string,
  bytes: Uint8Array,
) {
  const job = await jobRow(deps.db, jobId);
  assertLease(job, proof);
  if (job.status === "completed" || job.status === "failed")
    throw conflict(`job ${jobId} has ended; its artifacts are final`);
  if (job.status !== "leased")
    throw conflict(`job ${jobId} is not leased; its lease expired`, "lease_stale");
  const blob = await deps.blobs.put(bytes);
  const row = {
    episode_request_id: job.episode_request_id,
    name,
    sha256: blob.sha256,
    size_bytes: blob.size,
    media_type: MEDIA_TYPES[name] ?? "text/plain; charset=utf-8",
    created_at: nowIso(),
  };
  await deps.db
    .insertInto("artifacts")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["episode_request_id", "name"]).doUpdateSet({
        sha256: row.sha256,
        size_bytes: row.size_bytes,
        created_at: row.created_at,
      }),
    )
    .execute();
  return { type: name, sha256: blob.sha256, size_bytes: blob.size };
}

export async function complete(
  deps: QueueDeps,
  jobId: string,
  proof: LeaseProof,
  results: Record<string, unknown>,
  cpu?: EpisodeCpu,
) {
  const job = await jobRow(deps.db, jobId);
  const leaseHash = assertLease(job, proof);
  // A second delivery of the same completion changes nothing (results count once).
  if (job.status === "completed") return state(job);
  if (job.status === "failed") throw conflict(`job ${jobId} has already failed`);
  if (job.status !== "leased")
    throw conflict(`job ${jobId} is not leased; its lease expired`, "lease_stale");
  const parsed = EpisodeResults.safeParse(results);
  if (!parsed.success)
    throw invalidInput(
      ["body", "results", "scores"],
      "results need `scores`: one number per seat",
      "missing",
    );
  const seats = await deps.db
    .selectFrom("episode_participants")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("episode_request_id", "=", job.episode_request_id)
    .executeTakeFirstOrThrow();
  if (parsed.data.scores.length !== Number(seats.n))
    throw invalidInput(
      ["body", "results", "scores"],
      `expected ${Number(seats.n)} scores, one per seat, got ${parsed.data.scores.length}`,
      "value_error",
    );
  // Artifacts are in place when the final state becomes visible: a reader who sees it finds them.
  const resultsBlob = await deps.blobs.put(Buffer.from(JSON.stringify(results, null, 2)));
  const done = await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("jobs")
      .set({ status: "completed", lease_expires_at: null, updated_at: nowIso() })
      .where("id", "=", jobId)
      .where("status", "=", "leased")
      .where("lease_token_hash", "=", leaseHash)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await touchEpisode(trx, job.episode_request_id, {
      status: "completed",
      results: JSON.stringify(results),
      scores: JSON.stringify(parsed.data.scores),
      ...cpuColumn(cpu),
    });
    await setCertification(trx, job.episode_request_id, "certified", null);
    await putArtifactRow(trx, job.episode_request_id, "results", resultsBlob, false);
    return true;
  });
  if (done)
    deps.onSettled?.({
      episodeRequestId: job.episode_request_id,
      status: "completed",
      purpose: "",
    });
  return state(await jobRow(deps.db, jobId));
}

/** The episode's `cpu` column from a runner's report; nothing when the runner did not measure. */
function cpuColumn(cpu: EpisodeCpu | undefined): { cpu?: string } {
  return cpu === undefined ? {} : { cpu: JSON.stringify(cpu) };
}

/** An artifact row written with the state change it belongs to; `replace` overwrites an earlier one. */
async function putArtifactRow(
  trx: Transaction<Database>,
  episodeId: string,
  name: string,
  blob: { sha256: string; size: number },
  replace: boolean,
): Promise<void> {
  await trx
    .insertInto("artifacts")
    .values({
      episode_request_id: episodeId,
      name,
      sha256: blob.sha256,
      size_bytes: blob.size,
      media_type: MEDIA_TYPES[name] ?? "application/json",
      created_at: nowIso(),
    })
    .onConflict((oc) => {
      const target = oc.columns(["episode_request_id", "name"]);
      return replace
        ? target.doUpdateSet({ sha256: blob.sha256, size_bytes: blob.size })
        : target.doNothing();
    })
    .execute();
}

function errorInfo(input: FailureInfo): Buffer {
  return Buffer.from(
    JSON.stringify(
      {
        error_type: input.error_type,
        error: input.error,
        failed_policy_index: input.failed_policy_index,
      },
      null,
      2,
    ),
  );
}

/** Failures of the runner or the machine, not of a seat or the game: retried within attempts. */
const NOBODYS_FAULT = new Set<string>(["runner_error", "infrastructure"]);

/** What a runner reports when a job fails. */
type FailInput = BodyOf<"failJob">;
/** The part of a failure that is kept with the episode (the lease expiry writes one too). */
type FailureInfo = Pick<FailInput, "error_type" | "error" | "failed_policy_index"> &
  Partial<Pick<FailInput, "cpu">>;

export async function fail(deps: QueueDeps, jobId: string, proof: LeaseProof, input: FailInput) {
  const job = await jobRow(deps.db, jobId);
  const leaseHash = assertLease(job, proof);
  if (job.status === "completed" || job.status === "failed") return state(job);
  if (job.status !== "leased")
    throw conflict(`job ${jobId} is not leased; its lease expired`, "lease_stale");
  await failLeased(deps, job, leaseHash, input);
  return state(await jobRow(deps.db, jobId));
}

/** Ends (or requeues) a job under its current lease; 409 when it was leased again meanwhile. */
async function failLeased(
  deps: QueueDeps,
  job: JobsTable,
  leaseHash: string,
  input: FailureInfo,
): Promise<void> {
  const jobId = job.id;
  const returned = input.error_type === "returned";
  // Failures no seat caused are tried again while attempts are left.
  const retry =
    returned || (NOBODYS_FAULT.has(input.error_type) && job.attempts < job.max_attempts);
  const info = retry ? null : await deps.blobs.put(errorInfo(input));
  const settled = await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("jobs")
      .set({
        status: retry ? "queued" : "failed",
        lease_owner: null,
        lease_expires_at: null,
        // A job given back unrun does not spend an attempt.
        attempts: returned ? Math.max(0, job.attempts - 1) : job.attempts,
        updated_at: nowIso(),
      })
      .where("id", "=", jobId)
      .where("status", "=", "leased")
      .where("lease_token_hash", "=", leaseHash)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    if (info === null) {
      // Retried: the run's CPU still tells why (a busy runner), until the next run reports.
      await touchEpisode(trx, job.episode_request_id, {
        status: "submitted",
        ...cpuColumn(input.cpu),
      });
      return false;
    }
    await touchEpisode(trx, job.episode_request_id, {
      ...cpuColumn(input.cpu),
      status: "failed",
      error_type: input.error_type,
      error: input.error,
      failed_policy_index: input.failed_policy_index,
    });
    await setCertification(trx, job.episode_request_id, "failed", input.error);
    await putArtifactRow(trx, job.episode_request_id, "error-info", info, true);
    return true;
  });
  if (settled === null)
    throw conflict(`job ${jobId} was leased again while this report ran`, "lease_stale");
  if (settled)
    deps.onSettled?.({ episodeRequestId: job.episode_request_id, status: "failed", purpose: "" });
}
