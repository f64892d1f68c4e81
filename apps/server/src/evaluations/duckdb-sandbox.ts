// Reads an uploaded DuckDB file in a child process with bounded memory and time: DuckDB is
// native code reading a hostile file, so it runs where a crash, a runaway query or a memory
// blow-up ends one process the server can kill, not the server. The child gets none of the
// server's environment (no secrets to read even if DuckDB's own locks failed).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

import { Semaphore } from "../shared/semaphore.ts";
import {
  DEFAULT_READER_LIMITS,
  invalidUpload,
  type ReaderLimits,
  type UploadedEpisode,
} from "./duckdb-episodes.ts";
import type { ReaderReply, ReaderRequest } from "./duckdb-reader-process.ts";

export interface SandboxOptions {
  /** Wall-clock budget: the child is killed after it. */
  timeoutMs: number;
  /** The child's JavaScript heap (its copy of the episodes), in MiB. */
  heapMb: number;
  limits: ReaderLimits;
}

export const DEFAULT_SANDBOX: SandboxOptions = {
  timeoutMs: 120_000,
  heapMb: 1024,
  limits: DEFAULT_READER_LIMITS,
};

const CHILD = fileURLToPath(new URL("./duckdb-reader-process.ts", import.meta.url));

/** Enough to run a program; nothing of the server's configuration or secrets. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Node versions that strip TypeScript only behind a flag get the flag the server runs with. */
const typeFlags = () =>
  process.execArgv.filter((a) => /^--experimental-(strip|transform)-types/.test(a));

/** Readers at once on this server: more completions wait their turn. */
const readers = new Semaphore(2);

export function readEpisodeFileBoxed(
  path: string,
  options: SandboxOptions = DEFAULT_SANDBOX,
): Promise<UploadedEpisode[]> {
  return readers.run(() => readInChild(path, options));
}

function readInChild(path: string, options: SandboxOptions): Promise<UploadedEpisode[]> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], {
      execArgv: [...typeFlags(), `--max-old-space-size=${options.heapMb}`],
      env: childEnv(),
      serialization: "advanced",
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() =>
        reject(
          invalidUpload(
            `reading the DuckDB file took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`,
          ),
        ),
      );
    }, options.timeoutMs);
    child.on("message", (reply: ReaderReply) =>
      finish(() => {
        if (reply.ok) resolve(JSON.parse(reply.episodes) as UploadedEpisode[]);
        else if (reply.refused) reject(invalidUpload(reply.message));
        else reject(new Error(`the DuckDB reader failed: ${reply.message}`));
      }),
    );
    child.on("error", (error) => finish(() => reject(error)));
    child.on("exit", (code, signal) =>
      finish(() =>
        reject(
          invalidUpload(
            `the DuckDB file could not be read: its reader stopped (${signal ?? `exit code ${code}`}), out of memory or crashed`,
          ),
        ),
      ),
    );
    const request: ReaderRequest = { path, limits: options.limits };
    child.send(request);
  });
}
