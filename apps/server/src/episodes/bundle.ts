// An episode's artifacts as one zip, streamed as it is built (fflate), in the layout of the
// hosted service's bundle contract (coworld's docs/artifacts/EPISODE_BUNDLE.md): the files at the
// zip's root and a `manifest.json` that names each part's files. The derived spec and game config,
// the stored results, replay, game log and error info, and the seats' policy logs and uploaded
// artifacts for those who may read them. A part the episode does not have, or the caller may not
// read, is left out silently, and the manifest's `include` says what was delivered.
import { PassThrough, type Readable } from "node:stream";

import { Zip, ZipPassThrough } from "fflate";
import type { Kysely } from "kysely";

import type { BundlePart } from "@gauntlet/core";

import { canReadSeat } from "../access/episodes.ts";
import type { Identity } from "../auth/identity.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";
import { canReadGameLog, derivedArtifact } from "./episode-files.ts";

/** One part under both its names: ours (the artifact endpoints') and the hosted service's. */
type Part =
  | { kind: "derived"; artifact: "spec" | "game-config"; file: string }
  | { kind: "stored"; artifact: string; file: string; nested?: string }
  | { kind: "seats"; artifact: string; file: (position: number) => string };

const PARTS: Record<string, Part> = {
  spec: { kind: "derived", artifact: "spec", file: "spec.json" },
  "game-config": { kind: "derived", artifact: "game-config", file: "game-config.json" },
  results: { kind: "stored", artifact: "results", file: "results.json" },
  replay: { kind: "stored", artifact: "replay", file: "replay" },
  error_info: { kind: "stored", artifact: "error-info", file: "error_info.json" },
  game_logs: { kind: "stored", artifact: "logs", file: "logs/game.log", nested: "combined" },
  player_logs: {
    kind: "seats",
    artifact: "policy-log",
    file: (position) => `logs/policy_agent_${position}.log`,
  },
  player_artifact: {
    kind: "seats",
    artifact: "policy-artifact",
    file: (position) => `artifacts/policy_artifact_${position}.zip`,
  },
};

/** Our names for the hosted service's parts. */
const ALIASES: Partial<Record<BundlePart, string>> = {
  "error-info": "error_info",
  logs: "game_logs",
  "policy-logs": "player_logs",
  "policy-artifacts": "player_artifact",
};

interface Entry {
  /** The token as the caller asked for it, echoed in the manifest. */
  token: string;
  /** The seat, for a per-seat file. */
  seat?: number;
  nested?: string;
  file: string;
  read: () => Promise<Buffer | null>;
}

/** The files of the bundle, each read when its turn comes (one blob in memory at a time). */
async function entries(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: Identity,
  row: EpisodeRequestsTable,
  tokens: readonly BundlePart[],
): Promise<Entry[]> {
  const stored = await db
    .selectFrom("artifacts")
    .select(["name", "sha256"])
    .where("episode_request_id", "=", row.id)
    .execute();
  const out: Entry[] = [];
  const seen = new Set<string>();
  for (const token of tokens) {
    const key = ALIASES[token] ?? token;
    const part = PARTS[key];
    // A part asked for twice (or under both names) is in the bundle once.
    if (!part || seen.has(key)) continue;
    seen.add(key);
    if (part.kind === "derived")
      out.push({ token, file: part.file, read: () => derivedArtifact(db, row, part.artifact) });
    else if (part.kind === "stored") {
      if (part.artifact === "logs" && !(await canReadGameLog(db, identity, row))) continue;
      const blob = stored.find((a) => a.name === part.artifact);
      if (blob)
        out.push({
          token,
          file: part.file,
          ...(part.nested ? { nested: part.nested } : {}),
          read: () => blobs.get(blob.sha256),
        });
    } else {
      const seats = await db
        .selectFrom("episode_participants as ep")
        .leftJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
        .leftJoin("policies as p", "p.id", "pv.policy_id")
        .select(["ep.position", "p.owner_user_id"])
        .where("ep.episode_request_id", "=", row.id)
        .orderBy("ep.position")
        .execute();
      for (const seat of seats) {
        const allowed = canReadSeat(identity, row, seat);
        const blob = stored.find((a) => a.name === `${part.artifact}-${seat.position}`);
        if (allowed && blob)
          out.push({
            token,
            seat: seat.position,
            file: part.file(seat.position),
            read: () => blobs.get(blob.sha256),
          });
      }
    }
  }
  return out;
}

/** The manifest of what was written: each token's file, or its files by seat (or `combined`). */
function manifest(row: EpisodeRequestsTable, written: readonly Entry[]): Buffer {
  const include: string[] = [];
  const files: Record<string, string | Record<string, string>> = {};
  for (const entry of written) {
    if (!include.includes(entry.token)) include.push(entry.token);
    if (entry.seat !== undefined || entry.nested !== undefined) {
      const group = files[entry.token];
      const map = typeof group === "object" ? group : {};
      map[entry.seat !== undefined ? String(entry.seat) : (entry.nested ?? "combined")] =
        entry.file;
      files[entry.token] = map;
    } else files[entry.token] = entry.file;
  }
  const status =
    row.status === "completed"
      ? "success"
      : row.status === "failed" || row.status === "cancelled"
        ? "failed"
        : row.status;
  return Buffer.from(JSON.stringify({ ereq_id: row.id, status, include, files }, null, 2));
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
  const add = (name: string, bytes: Buffer) => {
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    entry.push(new Uint8Array(bytes), true);
  };
  void (async () => {
    const written: Entry[] = [];
    for (const file of files) {
      const bytes = await file.read();
      if (bytes === null) continue;
      add(file.file, bytes);
      written.push(file);
    }
    // Written last so that it names only what is in the zip; readers find it by name.
    add("manifest.json", manifest(row, written));
    zip.end();
  })().catch((error: unknown) =>
    out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}
