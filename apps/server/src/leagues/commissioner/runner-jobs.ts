// A coworld commissioner's session as runner work, in the store: queued by the replica whose
// driver opens the session, leased by one runner (a machine token; the lease's secret proves its
// report), ended once by that runner's report with the commissioner's capped log, or abandoned by
// the driver. Secrets (the lease's, the relay's) are kept only as hashes.
import { randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import {
  COMMISSIONER_LOG_MAX_BYTES,
  CoworldManifest,
  type CommissionerJob,
  type CommissionerJobEnd,
  type Isolation,
} from "@gauntlet/core";

import { runsUntrustedCode } from "../../access/code-trust.ts";
import { hashToken, newSecret } from "../../auth/secrets.ts";
import { nowIso, parseJson } from "../../shared/clock.ts";
import { conflict, forbidden, notFound, ServiceError } from "../../shared/errors.ts";
import type { CommissionerJobsTable, Database } from "../../store/schema.ts";
import type { CommissionerTarget } from "./channel.ts";

export async function queueCommissionerJob(
  db: Kysely<Database>,
  target: CommissionerTarget,
  startupMs: number,
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto("commissioner_jobs")
    .values({
      id,
      league_id: target.leagueId,
      coworld_id: target.coworldId,
      runnable_id: target.runnableId,
      purpose: target.purpose,
      round_id: target.roundId ?? null,
      status: "queued",
      // Made by the lease: the runner that holds it alone learns the relay's secret.
      relay_token_hash: "",
      lease_token_hash: null,
      lease_machine_id: null,
      runner_id: null,
      created_at: new Date(now).toISOString(),
      lease_by: new Date(now + startupMs).toISOString(),
      leased_at: null,
      ended_at: null,
      outcome: null,
      error: null,
      log: null,
    })
    .execute();
  return id;
}

type Runnable = CommissionerJob["runnable"];

/** The manifest's commissioner entry as a runnable, or null when it names none. */
function runnableOf(manifest: CoworldManifest, runnableId: string): Runnable | null {
  const entry: Record<string, unknown> | undefined = (manifest.commissioner ?? []).find(
    (c) => c.id === runnableId,
  );
  if (!entry) return null;
  const argv: unknown = entry.run;
  const run =
    Array.isArray(argv) && argv.every((a): a is string => typeof a === "string") ? argv : null;
  const image = typeof entry.image === "string" ? entry.image : null;
  const env: Record<string, string> = {};
  if (typeof entry.env === "object" && entry.env !== null)
    for (const [k, v] of Object.entries(entry.env)) if (typeof v === "string") env[k] = v;
  return { run, image, env };
}

/**
 * The oldest queued job this runner can run (an argv for `process`, an image for `docker`),
 * leased to it with a relay token of its own (shown once, kept hashed); null when none waits.
 */
export async function leaseCommissionerJob(
  db: Kysely<Database>,
  machineId: string,
  runnerId: string,
  runtimes: readonly ("process" | "docker")[],
  isolation: Isolation | null,
): Promise<{
  job: Omit<CommissionerJob, "relay_url" | "startup_timeout_ms" | "deadline_ms">;
  relayToken: string;
} | null> {
  const now = nowIso();
  const queued = await db
    .selectFrom("commissioner_jobs as j")
    .innerJoin("coworlds as c", "c.id", "j.coworld_id")
    .select([
      "j.id",
      "j.league_id",
      "j.purpose",
      "j.runnable_id",
      "c.id as coworld_id",
      "c.name",
      "c.version",
      "c.bundle_sha256",
      "c.manifest",
    ])
    .where("j.status", "=", "queued")
    .where("j.lease_by", ">", now)
    // A commissioner is code like a game: a competitor's goes only to a runner that isolates it
    // (access/code-trust.ts); a `process` runner, or one that does not say, gets admins' only.
    .$if(!runsUntrustedCode(isolation), (q) =>
      q.innerJoin("users as owner", "owner.id", "c.owner_user_id").where("owner.is_admin", "=", 1),
    )
    .orderBy("j.created_at")
    .limit(20)
    .execute();
  for (const row of queued) {
    const manifest = CoworldManifest.safeParse(parseJson(row.manifest));
    if (!manifest.success) continue;
    const runnable = runnableOf(manifest.data, row.runnable_id);
    if (!runnable) continue;
    const fits =
      (runtimes.includes("process") && runnable.run !== null && row.bundle_sha256 !== null) ||
      (runtimes.includes("docker") && runnable.image !== null);
    if (!fits) continue;
    const leaseToken = newSecret("glse_");
    const relayToken = newSecret("gcrl_");
    const taken = await db
      .updateTable("commissioner_jobs")
      .set({
        status: "leased",
        lease_token_hash: hashToken(leaseToken),
        relay_token_hash: hashToken(relayToken),
        lease_machine_id: machineId,
        runner_id: runnerId,
        leased_at: now,
      })
      .where("id", "=", row.id)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    return {
      relayToken,
      job: {
        job_id: row.id,
        lease_token: leaseToken,
        purpose: row.purpose as CommissionerJob["purpose"],
        league_id: row.league_id,
        coworld: {
          id: row.coworld_id,
          name: row.name,
          version: row.version,
          bundle_sha256: row.bundle_sha256,
        },
        runnable_id: row.runnable_id,
        runnable,
      },
    };
  }
  return null;
}

function capLog(log: string): string {
  const bytes = Buffer.from(log, "utf8");
  if (bytes.byteLength <= COMMISSIONER_LOG_MAX_BYTES) return log;
  // The end is what explains a failure: keep the last bytes.
  return bytes.subarray(bytes.byteLength - COMMISSIONER_LOG_MAX_BYTES).toString("utf8");
}

/** The runner's report: once; a repeat from the same lease is a no-op. */
export async function endCommissionerJob(
  db: Kysely<Database>,
  jobId: string,
  proof: { machineId: string; token: string | undefined },
  report: Pick<CommissionerJobEnd, "outcome" | "error" | "log">,
): Promise<{ job_id: string; status: "ended"; first: boolean }> {
  const job = await db
    .selectFrom("commissioner_jobs")
    .selectAll()
    .where("id", "=", jobId)
    .executeTakeFirst();
  if (!job) throw notFound("commissioner job", jobId);
  if (!proof.token)
    throw new ServiceError(403, "lease_required", "The job's report needs its X-Lease-Token.");
  if (job.lease_machine_id !== proof.machineId)
    throw forbidden(`Commissioner job ${jobId} is not leased by this machine.`);
  if (job.lease_token_hash !== hashToken(proof.token))
    throw conflict(`This lease of commissioner job ${jobId} is not current.`, "lease_stale");
  if (job.log !== null) return { job_id: jobId, status: "ended", first: false };
  // An abandoned job still takes its log: the driver may be waiting to read it.
  await db
    .updateTable("commissioner_jobs")
    .set({
      status: "ended",
      ended_at: job.ended_at ?? nowIso(),
      outcome: job.outcome ?? report.outcome,
      error: job.error ?? report.error.slice(0, 10_000),
      log: capLog(report.log),
    })
    .where("id", "=", jobId)
    .execute();
  return { job_id: jobId, status: "ended", first: true };
}

/** Whether a relay socket may attach: the job is leased and the token is its relay's. */
export async function admitRelay(
  db: Kysely<Database>,
  jobId: string,
  token: string,
): Promise<"admitted" | "unknown" | "ended"> {
  const job = await db
    .selectFrom("commissioner_jobs")
    .select(["status", "relay_token_hash"])
    .where("id", "=", jobId)
    .executeTakeFirst();
  if (
    !job ||
    token === "" ||
    job.relay_token_hash === "" ||
    job.relay_token_hash !== hashToken(token)
  )
    return "unknown";
  return job.status === "leased" ? "admitted" : "ended";
}

/** The driver gave up on the job (its session ended or never started): it is leased no more. */
export async function abandonCommissionerJob(
  db: Kysely<Database>,
  jobId: string,
  why: string,
): Promise<void> {
  await db
    .updateTable("commissioner_jobs")
    .set({ status: "ended", ended_at: nowIso(), outcome: "abandoned", error: why })
    .where("id", "=", jobId)
    .where("status", "!=", "ended")
    .execute();
}

export async function readCommissionerJob(
  db: Kysely<Database>,
  jobId: string,
): Promise<CommissionerJobsTable | undefined> {
  return db.selectFrom("commissioner_jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
}
