// Lists a tar.gz streaming, within budgets, refusing what the runner would refuse when it
// extracts the bundle (apps/runner extract-bundle.ts): links and devices, unsafe or over-long
// names. Runs in a worker thread (tar-inspect-worker.ts), never on the server's event loop.
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";

import * as tar from "tar";

export type TarListing = { ok: true; files: string[] } | { ok: false; error: string };
/** A listing with the files' bytes (paths without a leading `./`). */
export type TarFiles =
  { ok: true; files: { path: string; bytes: Uint8Array }[] } | { ok: false; error: string };

export interface TarBudgets {
  /** Bytes the archive may unpack to (the runner's own limit: 1 GiB). */
  maxBytes: number;
  /** Entries (files, folders) it may hold. */
  maxEntries: number;
  /** Unpacked bytes per packed byte, past `ratioFloorBytes`: a bomb stops early. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Wall-clock time for the whole inspection (the caller stops the worker after it). */
  timeMs: number;
}

export const DEFAULT_TAR_BUDGETS: TarBudgets = {
  maxBytes: 1 << 30,
  maxEntries: 10_000,
  maxRatio: 100,
  ratioFloorBytes: 16 << 20,
  timeMs: 20_000,
};

/** Linux's bound on one name (bytes), and ours on a whole path: what extraction can create. */
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 1024;

/** Why the runner would refuse an entry, or null. */
export function entryProblem(path: string, type: string): string | null {
  const shown = JSON.stringify(path.length > 120 ? `${path.slice(0, 120)}…` : path);
  if (type !== "File" && type !== "OldFile" && type !== "Directory")
    return `entry ${shown} is a ${type}: bundles hold only files and directories`;
  if (path.includes("\\")) return `entry ${shown} has a backslash in its name`;
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return `entry ${shown} has an absolute path`;
  if (path.split("/").includes("..")) return `entry ${shown} climbs out of the bundle with ..`;
  if (Buffer.byteLength(path) > MAX_PATH_BYTES)
    return `entry ${shown} has a path longer than ${MAX_PATH_BYTES} bytes`;
  if (path.split("/").some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES))
    return `entry ${shown} has a name longer than ${MAX_NAME_BYTES} bytes`;
  return null;
}

class Refused extends Error {}

export async function inspectArchive(
  bytes: Uint8Array,
  budgets: TarBudgets = DEFAULT_TAR_BUDGETS,
): Promise<TarListing> {
  const read = await readArchive(bytes, budgets, false);
  return read.ok ? { ok: true, files: read.files.map((f) => f.path) } : read;
}

/** The archive's files with their bytes, within the same budgets and rules. */
export function readArchiveFiles(bytes: Uint8Array, budgets: TarBudgets): Promise<TarFiles> {
  return readArchive(bytes, budgets, true).then((read) =>
    read.ok
      ? {
          ok: true,
          files: read.files.map((f) => ({ path: f.path.replace(/^(\.\/)+/, ""), bytes: f.bytes })),
        }
      : read,
  );
}

async function readArchive(
  bytes: Uint8Array,
  budgets: TarBudgets,
  keep: boolean,
): Promise<TarFiles> {
  if (bytes.byteLength < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return { ok: false, error: "the bytes are not gzip" };
  const allowed = Math.min(
    budgets.maxBytes,
    Math.max(budgets.ratioFloorBytes, budgets.maxRatio * bytes.byteLength),
  );
  let unpacked = 0;
  // Counts what gunzip produces and stops the stream at the budget: nothing past it inflates.
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      unpacked += chunk.byteLength;
      if (unpacked > allowed)
        done(
          new Refused(
            allowed < budgets.maxBytes
              ? `the archive unpacks to more than ${budgets.maxRatio} times its size (${allowed} bytes)`
              : `the archive unpacks to more than ${budgets.maxBytes} bytes`,
          ),
        );
      else done(null, chunk);
    },
  });
  const files: { path: string; bytes: Uint8Array }[] = [];
  let entries = 0;
  let problem = null as string | null; // set by the entry callbacks
  const parser = tar.t({
    strict: true,
    onReadEntry: (entry) => {
      entries += 1;
      problem ??=
        entries > budgets.maxEntries
          ? `the archive holds more than ${budgets.maxEntries} entries`
          : entryProblem(entry.path, entry.type);
      if (problem) parser.abort(new Refused(problem));
      else if (entry.type === "File" || entry.type === "OldFile") {
        const path = entry.path;
        if (!keep) files.push({ path, bytes: new Uint8Array(0) });
        else {
          const chunks: Buffer[] = [];
          entry.on("data", (chunk: Buffer) => chunks.push(chunk));
          entry.on("end", () => files.push({ path, bytes: Buffer.concat(chunks) }));
          return;
        }
      }
      entry.resume();
    },
  });
  try {
    await pipeline(Readable.from([Buffer.from(bytes)]), createGunzip(), meter, parser);
  } catch (error) {
    if (problem) return { ok: false, error: problem };
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (problem) return { ok: false, error: problem };
  if (files.length === 0) return { ok: false, error: "the archive holds no files" };
  return { ok: true, files };
}
