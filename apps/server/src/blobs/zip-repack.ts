// A cogames policy zip repacked as a tar.gz bundle, within the archive budgets (tar-inspect.ts):
// entries, bytes unpacked, unpacked bytes per packed byte, and (the caller's) time. Runs in the
// archive worker (tar-inspect-worker.ts), never on the server's event loop. The zip's declared
// sizes are checked before anything inflates (also on the event loop, where reading the central
// directory costs microseconds); fflate inflates each entry into a buffer of its declared size,
// so a size that lies cannot make it allocate more.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { unzipSync, type UnzipFileInfo } from "fflate";
import * as tar from "tar";

import { MAX_NAME_BYTES, MAX_PATH_BYTES, type TarBudgets } from "./tar-inspect.ts";

export type ZipRepacked = { ok: true; tarGz: Uint8Array } | { ok: false; error: string };

/** Why a zip entry's name cannot be written as a bundle file, or null when it can. */
function unsafeName(name: string): string | null {
  if (name.includes("\\")) return "has a backslash";
  if (name.startsWith("/")) return "is an absolute path";
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) return "has a .. component";
  if (parts.length === 0) return "is empty";
  if (Buffer.byteLength(name) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  if (parts.some((p) => Buffer.byteLength(p) > MAX_NAME_BYTES))
    return `has a name longer than ${MAX_NAME_BYTES} bytes`;
  return null;
}

/**
 * Why the zip's central directory alone refuses it (names, entries, declared bytes against the
 * budgets), or null: nothing inflates, so the server answers a bomb at once, before it waits
 * for a worker.
 */
export function zipProblem(bytes: Uint8Array, budgets: TarBudgets): string | null {
  const allowed = Math.min(
    budgets.maxBytes,
    Math.max(budgets.ratioFloorBytes, budgets.maxRatio * bytes.byteLength),
  );
  let entries = 0;
  let total = 0;
  let refusal = null as string | null; // set by the filter, while the directory is read
  try {
    unzipSync(bytes, {
      filter: (file: UnzipFileInfo) => {
        if (refusal || file.name.endsWith("/")) return false;
        entries += 1;
        total += file.originalSize;
        const unsafe = unsafeName(file.name);
        if (unsafe) refusal = `entry ${JSON.stringify(file.name.slice(0, 120))} ${unsafe}`;
        else if (entries > budgets.maxEntries)
          refusal = `the zip holds more than ${budgets.maxEntries} entries`;
        else if (total > allowed)
          refusal =
            allowed < budgets.maxBytes
              ? `the zip unpacks to more than ${budgets.maxRatio} times its size (${allowed} bytes)`
              : `the zip unpacks to more than ${budgets.maxBytes} bytes`;
        return false;
      },
    });
  } catch (error) {
    return `not a zip: ${(error as Error).message}`;
  }
  if (refusal) return refusal;
  return entries === 0 ? "the zip holds no files" : null;
}

/**
 * The zip's files written under `root` (the caller makes it, and removes it even when the worker
 * is stopped) and packed as tar.gz there: it holds at most the unpacked budget and the bundle.
 */
export function repackZip(bytes: Uint8Array, budgets: TarBudgets, root: string): ZipRepacked {
  const problem = zipProblem(bytes, budgets);
  if (problem) return { ok: false, error: problem };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => !file.name.endsWith("/") });
  } catch (error) {
    return { ok: false, error: `not a zip: ${(error as Error).message}` };
  }
  const dir = join(root, "files");
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  const out = join(root, "bundle.tar.gz");
  tar.c({ gzip: true, cwd: dir, portable: true, sync: true, file: out }, ["."]);
  return { ok: true, tarGz: readFileSync(out) };
}
