// Bundles are tar.gz archives (policy and coworld files). The server checks them and packs
// the example coworld; runners extract them (apps/runner). Uses the maintained `tar` package.
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";

import * as tar from "tar";

export type TarListing = { ok: true; files: string[] } | { ok: false; error: string };

const MAX_FILES = 10_000;

/** Lists a tar.gz without writing anything; refuses absolute paths and `..` escapes. */
export async function inspectTarGz(bytes: Uint8Array): Promise<TarListing> {
  if (bytes.byteLength < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return { ok: false, error: "the bytes are not gzip" };
  const files: string[] = [];
  let bad = null as string | null; // set inside the entry callback
  try {
    await pipeline(
      Readable.from([Buffer.from(bytes)]),
      tar.t({
        strict: true,
        onReadEntry: (entry) => {
          const path = entry.path;
          if (path.startsWith("/") || path.split("/").includes(".."))
            bad ??= `unsafe path in archive: ${path}`;
          if (entry.type === "File") files.push(path);
          entry.resume();
        },
      }),
    );
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (bad) return { ok: false, error: bad };
  if (files.length === 0) return { ok: false, error: "the archive holds no files" };
  if (files.length > MAX_FILES)
    return { ok: false, error: `the archive holds more than ${MAX_FILES} files` };
  return { ok: true, files };
}

/** Packs a directory into tar.gz bytes, leaving out node_modules and test folders. */
export async function packDirectory(
  dir: string,
  exclude: (path: string) => boolean = defaultExclude,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    tar.c({ gzip: true, cwd: dir, portable: true, filter: (path) => !exclude(path) }, ["."]),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

function defaultExclude(path: string): boolean {
  return /(^|\/)(node_modules|\.turbo|coverage)(\/|$)/.test(path);
}

export type TarFiles =
  { ok: true; files: { path: string; bytes: Buffer }[] } | { ok: false; error: string };

/**
 * Reads the regular files of a tar.gz into memory (small bundles: play modules), paths without
 * a leading `./`. Refuses what `inspectTarGz` refuses, links and devices, and more than
 * `maxFiles` files or `maxBytes` bytes unpacked.
 */
export async function readTarGzFiles(
  bytes: Uint8Array,
  limits: { maxFiles: number; maxBytes: number },
): Promise<TarFiles> {
  const listing = await inspectTarGz(bytes);
  if (!listing.ok) return listing;
  const files: { path: string; bytes: Buffer }[] = [];
  let total = 0;
  let bad = null as string | null; // set inside the entry callback
  await pipeline(
    Readable.from([Buffer.from(bytes)]),
    tar.t({
      strict: true,
      onReadEntry: (entry) => {
        if (entry.type !== "File" && entry.type !== "Directory")
          bad ??= `only files and folders may be in the archive: ${entry.path} is a ${entry.type}`;
        if (entry.type !== "File" || bad) return void entry.resume();
        const chunks: Buffer[] = [];
        entry.on("data", (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > limits.maxBytes)
            bad ??= `the archive unpacks to more than ${limits.maxBytes} bytes`;
          else chunks.push(chunk);
        });
        entry.on("end", () =>
          files.push({ path: entry.path.replace(/^(\.\/)+/, ""), bytes: Buffer.concat(chunks) }),
        );
      },
    }),
  );
  if (bad) return { ok: false, error: bad };
  if (files.length > limits.maxFiles)
    return { ok: false, error: `the archive holds more than ${limits.maxFiles} files` };
  return { ok: true, files };
}
