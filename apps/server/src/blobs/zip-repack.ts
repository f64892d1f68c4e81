// A cogames policy zip repacked as a tar.gz bundle, within the archive budgets (tar-inspect.ts):
// entries, bytes unpacked, unpacked bytes per packed byte, and (the caller's) time. Runs in the
// archive worker (tar-inspect-worker.ts), never on the server's event loop. The sizes the zip's
// central directory declares (zip-directory.ts) are checked against the budgets before anything
// inflates, in the worker too (nothing of a zip is read on the event loop). A zip may
// lie about them, so each entry then inflates bounded by its declared size (node:zlib stops the
// moment it would produce more) and is refused unless its bytes match the declared size and
// CRC-32: what is unpacked is what was declared and checked, and a lie costs no more than that.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { crc32, inflateRawSync } from "node:zlib";

import * as tar from "tar";

import { MAX_NAME_BYTES, MAX_PATH_BYTES, type TarBudgets } from "./tar-inspect.ts";
import { readZipDirectory, type ZipEntry } from "./zip-directory.ts";

export type ZipRepacked = { ok: true; tarGz: Uint8Array } | { ok: false; error: string };

const STORED = 0;
const DEFLATE = 8;

const shown = (name: string) => JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);

/** Why a zip entry's name cannot be written as a bundle file, or null when it can. */
function unsafeName(name: string): string | null {
  if (name.includes("\\")) return "has a backslash";
  if (name.includes("\u0000")) return "has a NUL character";
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
 * A file that is also another entry's folder (`a` and `a/b`): the bundle cannot hold both. In
 * one sort: with `/` ordered before every other character, the paths under `a/` come right
 * after `a`. (Building every path's folder prefixes costs entries × depth²: 10,000 names of 500
 * levels held the event loop 16 s.)
 */
function fileAlsoFolder(paths: Iterable<string>): { file: string; under: string } | null {
  const keyed = [...paths].map((path) => ({ path, key: path.replaceAll("/", "\u0000") }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i + 1 < keyed.length; i += 1) {
    const [here, next] = [keyed[i], keyed[i + 1]];
    if (here && next && next.key.startsWith(`${here.key}\u0000`))
      return { file: here.path, under: next.path };
  }
  return null;
}

/** Why one entry's declarations refuse the zip, or null. */
function entryProblem(entry: ZipEntry): string | null {
  const unsafe = unsafeName(entry.name);
  if (unsafe) return `entry ${shown(entry.name)} ${unsafe}`;
  if (entry.encrypted) return `entry ${shown(entry.name)} is encrypted`;
  if (entry.method !== STORED && entry.method !== DEFLATE)
    return `entry ${shown(entry.name)} uses compression method ${entry.method}: only stored (0) and deflate (8) are read`;
  return null;
}

type CheckedEntries = { ok: true; files: ZipEntry[] } | { ok: false; error: string };

/** The zip's files once its central directory alone passes the budgets and rules. */
function checkedEntries(bytes: Uint8Array, budgets: TarBudgets): CheckedEntries {
  // Folder records count too: a million of them took the event loop 0.6 s to read.
  const directory = readZipDirectory(bytes, budgets.maxEntries);
  if (!directory.ok) return directory;
  const allowed = Math.min(
    budgets.maxBytes,
    Math.max(budgets.ratioFloorBytes, budgets.maxRatio * bytes.byteLength),
  );
  const files = directory.entries.filter((entry) => !entry.name.endsWith("/"));
  const paths = new Set<string>();
  let total = 0;
  for (const [i, entry] of files.entries()) {
    if (i >= budgets.maxEntries)
      return { ok: false, error: `the zip holds more than ${budgets.maxEntries} entries` };
    const problem = entryProblem(entry);
    if (problem) return { ok: false, error: problem };
    // Two entries of one path: the bundle could hold only one of them.
    const path = entry.name
      .split("/")
      .filter((p) => p !== "" && p !== ".")
      .join("/");
    if (paths.has(path)) return { ok: false, error: `entry ${shown(entry.name)} appears twice` };
    paths.add(path);
    total += entry.size;
    if (total > allowed)
      return {
        ok: false,
        error:
          allowed < budgets.maxBytes
            ? `the zip unpacks to more than ${budgets.maxRatio} times its size (${allowed} bytes)`
            : `the zip unpacks to more than ${budgets.maxBytes} bytes`,
      };
  }
  const clash = fileAlsoFolder(paths);
  if (clash)
    return {
      ok: false,
      error: `entry ${shown(clash.file)} is a file and also a folder of ${shown(clash.under)}`,
    };
  return files.length === 0 ? { ok: false, error: "the zip holds no files" } : { ok: true, files };
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;

/** The entry's bytes, never more than its declared size, or why they are not what it declares. */
function unpackEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array | string {
  const name = shown(entry.name);
  const packed = bytes.subarray(entry.dataStart, entry.dataStart + entry.packedSize);
  let content: Uint8Array;
  if (entry.method === STORED) content = packed;
  else
    try {
      // zlib stops within one output chunk past the bound: a lying size inflates no further.
      content = inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
        return `entry ${name} inflates to more than its declared ${entry.size} bytes`;
      return `entry ${name} is not valid deflate data (${(error as Error).message})`;
    }
  if (content.byteLength !== entry.size)
    return `entry ${name} ${entry.method === STORED ? "holds" : "inflates to"} ${content.byteLength} bytes, not its declared ${entry.size}`;
  const crc = crc32(content);
  if (crc !== entry.crc32)
    return `entry ${name} fails its CRC-32 check (declared ${hex(entry.crc32)}, its bytes ${hex(crc)})`;
  return content;
}

/**
 * The zip's files written under `root` (the caller makes it, and removes it even when the worker
 * is stopped) and packed as tar.gz there: it holds at most the unpacked budget and the bundle.
 */
export function repackZip(bytes: Uint8Array, budgets: TarBudgets, root: string): ZipRepacked {
  const checked = checkedEntries(bytes, budgets);
  if (!checked.ok) return checked;
  const dir = join(root, "files");
  for (const entry of checked.files) {
    const content = unpackEntry(bytes, entry);
    if (typeof content === "string") return { ok: false, error: content };
    const path = join(dir, entry.name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  const out = join(root, "bundle.tar.gz");
  tar.c({ gzip: true, cwd: dir, portable: true, sync: true, file: out }, ["."]);
  return { ok: true, tarGz: readFileSync(out) };
}
