// Runs the compaction on a timer: once soon after start, then every interval; one run at a time.
import type { Kysely } from "kysely";

import { settled } from "@gauntlet/core";

import type { BlobStore } from "../blobs/blob-store.ts";
import type { Engine } from "../store/database.ts";
import type { Database } from "../store/schema.ts";
import { compact, type CompactionReport } from "./compaction.ts";
import type { RetentionSettings } from "./settings.ts";

/** The first run waits this long, so that a start is not slowed by a sweep. */
const FIRST_RUN_MS = 10_000;

export class Retention {
  readonly #deps: { db: Kysely<Database>; blobs: BlobStore; engine: Engine };
  readonly #settings: RetentionSettings;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<CompactionReport> | undefined;
  /** The run the callers arriving during `#running` wait for. */
  #next: Promise<CompactionReport> | undefined;
  #stopped = false;

  constructor(
    deps: { db: Kysely<Database>; blobs: BlobStore; engine: Engine },
    settings: RetentionSettings,
    onError: (error: unknown) => void,
  ) {
    this.#deps = deps;
    this.#settings = settings;
    this.#onError = onError;
  }

  start(): void {
    this.#schedule(Math.min(FIRST_RUN_MS, this.#settings.intervalMs));
  }

  /**
   * One compaction that starts after this call: now, or once the one under way ends (it may have
   * listed before the caller's change, so joining it would miss that); calls meanwhile share it.
   */
  run(): Promise<CompactionReport> {
    const current = this.#running;
    if (current === undefined) return this.#start();
    this.#next ??= settled(current).then(() => {
      this.#next = undefined;
      // A stopped server starts nothing more (its store is closing).
      if (this.#stopped) return current;
      return this.#running ?? this.#start();
    });
    return this.#next;
  }

  #start(): Promise<CompactionReport> {
    const run = compact(this.#deps, this.#settings).finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.#running) await settled(this.#running);
    if (this.#next) await settled(this.#next);
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.run()
        .catch((error: unknown) => this.#onError(error))
        .finally(() => this.#schedule(this.#settings.intervalMs));
    }, ms);
    this.#timer.unref();
  }
}
