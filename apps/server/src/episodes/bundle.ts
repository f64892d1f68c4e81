// An episode's artifacts as one zip, streamed as it is built (fflate): the derived spec and
// game config, the stored results, replay and error info; the game's log and the seats' policy
// logs and uploaded artifacts for those who may read them. Artifacts the episode lacks are left out.
import { PassThrough, type Readable } from "node:stream";

import { Zip, ZipPassThrough } from "fflate";
import type { Kysely } from "kysely";

import type { BundlePart } from "@gauntlet/core";

import { canReadSeat } from "../access/episodes.ts";
import type { Identity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";
import { canReadGameLog, derivedArtifact } from "./episodes.ts";

/** The seat files of the bundle: each seat's stored artifact of that name, under that folder. */
const SEAT_FILES = {
  "policy-logs": {
    artifact: "policy-log",
    file: (position: number) => `policy-logs/${position}.txt`,
  },
  "policy-artifacts": {
    artifact: "policy-artifact",
    file: (position: number) => `policy-artifacts/${position}`,
  },
} as const;

const FILE_NAMES: Record<string, string> = {
  spec: "spec.json",
  "game-config": "game-config.json",
  results: "results.json",
  replay: "replay",
  logs: "logs.txt",
  "error-info": "error-info.json",
};

/** The files of the bundle, each read when its turn comes (one blob in memory at a time). */
async function entries(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  row: EpisodeRequestsTable,
  parts: readonly BundlePart[],
) {
  const stored = await db
    .selectFrom("artifacts")
    .select(["name", "sha256"])
    .where("episode_request_id", "=", row.id)
    .execute();
  const out: { name: string; read: () => Promise<Buffer | null> }[] = [];
  for (const part of parts) {
    if (part === "spec" || part === "game-config")
      out.push({ name: FILE_NAMES[part] ?? part, read: () => derivedArtifact(db, row, part) });
    else if (part === "policy-logs" || part === "policy-artifacts") {
      const kind = SEAT_FILES[part];
      const seats = await db
        .selectFrom("episode_participants as ep")
        .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
        .leftJoin("policies as p", "p.id", "pv.policy_id")
        .select(["ep.position", "p.owner_user_id"])
        .where("ep.episode_request_id", "=", row.id)
        .execute();
      for (const seat of seats) {
        const allowed = canReadSeat(identity, row, seat);
        const blob = stored.find((a) => a.name === `${kind.artifact}-${seat.position}`);
        if (allowed && blob)
          out.push({ name: kind.file(seat.position), read: () => blobs.get(blob.sha256) });
      }
    } else {
      if (part === "logs" && !(await canReadGameLog(db, identity, row))) continue;
      const blob = stored.find((a) => a.name === part);
      if (blob) out.push({ name: FILE_NAMES[part] ?? part, read: () => blobs.get(blob.sha256) });
    }
  }
  return out;
}

export async function episodeBundle(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  row: EpisodeRequestsTable,
  parts: readonly BundlePart[],
): Promise<Readable> {
  const files = await entries(db, blobs, identity, row, parts);
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  void (async () => {
    for (const file of files) {
      const bytes = await file.read();
      if (bytes === null) continue;
      const entry = new ZipPassThrough(`${row.id}/${file.name}`);
      zip.add(entry);
      entry.push(new Uint8Array(bytes), true);
    }
    zip.end();
  })().catch((error: unknown) =>
    out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}
