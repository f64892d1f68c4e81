// Bundles are tar.gz archives (policy and coworld files). The server checks them and packs
// the example coworld; runners extract them (apps/runner). Uses the maintained `tar` package.
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";

import * as tar from "tar";

import { DEFAULT_TAR_BUDGETS, type TarBudgets, type TarListing } from "./tar-inspect.ts";

export type { TarBudgets, TarListing } from "./tar-inspect.ts";

const WORKER = new URL("./tar-inspect-worker.ts", import.meta.url);

/** Warm workers kept between inspections (a new one costs a few hundred ms to start). */
const MAX_IDLE = 2;
const idle: Worker[] = [];

function spawnWorker(): Worker {
  const worker = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  // An idle worker that died leaves the pool by itself.
  worker.once("exit", () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

function takeWorker(): Worker {
  const worker = idle.pop() ?? spawnWorker();
  worker.ref();
  return worker;
}

function releaseWorker(worker: Worker): void {
  if (idle.length >= MAX_IDLE) return void worker.terminate();
  // An idle worker does not keep the process alive.
  worker.unref();
  idle.push(worker);
}

/**
 * Lists a tar.gz without writing anything, in a worker thread with a bounded heap and a
 * wall-clock budget (see tar-inspect.ts for the budgets on bytes, entries and ratio, and the
 * entries refused): an archive bomb costs a worker's time, never the event loop's.
 */
export function inspectTarGz(
  bytes: Uint8Array,
  budgets: TarBudgets = DEFAULT_TAR_BUDGETS,
): Promise<TarListing> {
  if (bytes.byteLength < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return Promise.resolve({ ok: false, error: "the bytes are not gzip" });
  return new Promise((resolve) => {
    const worker = takeWorker();
    let settled = false;
    const finish = (listing: TarListing, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (reusable) releaseWorker(worker);
      else void worker.terminate();
      resolve(listing);
    };
    // Past its time the worker is stopped mid-inflate: terminate ends its JavaScript at once.
    const timer = setTimeout(
      () =>
        finish(
          {
            ok: false,
            error: `inspecting the archive took longer than ${budgets.timeMs} ms and was stopped`,
          },
          false,
        ),
      budgets.timeMs,
    );
    const onMessage = (listing: TarListing) => finish(listing, true);
    // Out of its heap, or a fault in the archive's handling: the archive is refused, not the server.
    const onError = (error: Error) =>
      finish({ ok: false, error: `the archive could not be inspected: ${error.message}` }, false);
    const onExit = (code: number) =>
      finish({ ok: false, error: `the archive inspection stopped (exit ${code})` }, false);
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage({ bytes, budgets });
  });
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
  let bad: string | null = null;
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
