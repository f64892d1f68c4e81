// Bundles are tar.gz archives (policy and coworld files). The server checks them and packs
// the example coworld; runners extract them (apps/runner). Uses the maintained `tar` package.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";

import * as tar from "tar";

import { Semaphore } from "../shared/semaphore.ts";
import type { ArchiveJob } from "./tar-inspect-worker.ts";
import {
  DEFAULT_TAR_BUDGETS,
  type TarBudgets,
  type TarFiles,
  type TarListing,
} from "./tar-inspect.ts";
import type { ZipRepacked } from "./zip-repack.ts";

export type { TarBudgets, TarFiles, TarListing } from "./tar-inspect.ts";

const WORKER = new URL("./tar-inspect-worker.ts", import.meta.url);

/** Inspections at once on this server (each may take a core): more wait their turn. */
const inspections = new Semaphore(4);

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
  return inWorker<TarListing>(bytes, budgets, false);
}

function inWorker<T extends TarListing | TarFiles | ZipRepacked>(
  bytes: Uint8Array,
  budgets: TarBudgets,
  read: boolean,
): Promise<T | { ok: false; error: string }> {
  if (bytes.byteLength < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return Promise.resolve({ ok: false, error: "the bytes are not gzip" });
  return inspections.run(() => inOneWorker<T>({ kind: read ? "read" : "list", bytes, budgets }));
}

/**
 * A cogames policy zip repacked as tar.gz bytes, in the archive worker within the archive
 * budgets (bytes, entries and ratio checked from the directory before anything inflates, the worker stopped past
 * the time budget), sharing the inspections' permits; its temporary files removed whatever
 * happens.
 */
export async function zipToTarGz(
  bytes: Uint8Array,
  budgets: TarBudgets = DEFAULT_TAR_BUDGETS,
): Promise<ZipRepacked> {
  // Nothing of the zip is read on the event loop: its directory's checks, linear as they are,
  // took a second there for 10,000 names 500 folders deep. The worker refuses a bomb from the
  // directory before anything inflates.
  return inspections.run(async () => {
    const root = await mkdtemp(join(tmpdir(), "gauntlet-cogames-zip-"));
    try {
      return await inOneWorker<ZipRepacked>({ kind: "zip", bytes, budgets, root });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
}

function inOneWorker<T extends TarListing | TarFiles | ZipRepacked>(
  job: ArchiveJob,
): Promise<T | { ok: false; error: string }> {
  const { budgets } = job;
  return new Promise((resolve) => {
    const worker = takeWorker();
    let settled = false;
    const finish = (listing: T | { ok: false; error: string }, reusable: boolean) => {
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
            error: `${job.kind === "zip" ? "unpacking the zip" : "inspecting the archive"} took longer than the time budget of ${budgets.timeMs} ms and was stopped`,
          },
          false,
        ),
      budgets.timeMs,
    );
    const onMessage = (listing: T) => finish(listing, true);
    // Out of its heap, or a fault in the archive's handling: the archive is refused, not the server.
    const onError = (error: Error) =>
      finish({ ok: false, error: `the archive could not be inspected: ${error.message}` }, false);
    const onExit = (code: number) =>
      finish({ ok: false, error: `the archive inspection stopped (exit ${code})` }, false);
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(job);
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

/**
 * Reads the regular files of a tar.gz into memory (small bundles: play modules), paths without
 * a leading `./`, in the inspection worker: refuses what `inspectTarGz` refuses, and more than
 * `maxFiles` files or `maxBytes` bytes unpacked.
 */
export async function readTarGzFiles(
  bytes: Uint8Array,
  limits: { maxFiles: number; maxBytes: number },
): Promise<TarFiles> {
  const read = await inWorker<TarFiles>(
    bytes,
    { ...DEFAULT_TAR_BUDGETS, maxBytes: limits.maxBytes },
    true,
  );
  if (read.ok && read.files.length > limits.maxFiles)
    return { ok: false, error: `the archive holds more than ${limits.maxFiles} files` };
  return read;
}
