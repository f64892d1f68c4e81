// A leased job's artifacts and its completion: results checked against the seats, written with
// the final state in one transaction (a second delivery of the same completion changes nothing).
import { EpisodeResults, type EpisodeCpu } from "@gauntlet/core";

import { nowIso } from "../shared/clock.ts";
import { conflict, invalidInput } from "../shared/errors.ts";
import { touchEpisode } from "./episodes.ts";
import { assertLease, jobRow, jobState, type LeaseProof } from "./job-lease-proof.ts";
import { cpuColumn, MEDIA_TYPES, putArtifactRow, setCertification } from "./job-records.ts";
import { keepStates } from "./player-state.ts";
import type { QueueDeps } from "./queue-deps.ts";

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
  if (job.status === "completed") return jobState(job);
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
  // A stateful episode's new states become its players' heads before anyone hears it ended.
  if (done) await keepStates(deps.db, deps.box, deps.blobs, job.episode_request_id);
  if (done)
    deps.onSettled?.({
      episodeRequestId: job.episode_request_id,
      status: "completed",
      purpose: "",
    });
  return jobState(await jobRow(deps.db, jobId));
}
