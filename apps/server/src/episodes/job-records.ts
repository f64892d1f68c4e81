// What a job's end writes beside its state: the certification it settles, the artifact rows of
// its results or failure, and the CPU the runner measured.
import type { Transaction } from "kysely";

import { type BodyOf, type EpisodeCpu } from "@gauntlet/core";

import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";

export async function setCertification(
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

export const MEDIA_TYPES: Record<string, string> = {
  results: "application/json",
  "error-info": "application/json",
  "game-config": "application/json",
  replay: "application/octet-stream",
};
/** The episode's `cpu` column from a runner's report; nothing when the runner did not measure. */
export function cpuColumn(cpu: EpisodeCpu | undefined): { cpu?: string } {
  return cpu === undefined ? {} : { cpu: JSON.stringify(cpu) };
}

/** An artifact row written with the state change it belongs to; `replace` overwrites an earlier one. */
export async function putArtifactRow(
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

export function errorInfo(input: FailureInfo): Buffer {
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

/** What a runner reports when a job fails. */
export type FailInput = BodyOf<"failJob">;
/** The part of a failure that is kept with the episode (the lease expiry writes one too). */
export type FailureInfo = Pick<FailInput, "error_type" | "error" | "failed_policy_index"> &
  Partial<Pick<FailInput, "cpu">>;
