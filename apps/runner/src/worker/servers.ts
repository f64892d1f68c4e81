// The server addresses a runner may talk to (`--server A --server B`, or `A,B`): replicas of one
// deployment, so any of them serves any request. A call goes to the address that answered last;
// when it gets no answer there (no connection, a timeout, a 5xx from a replica or its balancer,
// a 429), it goes on to the next address at once, round and round. A call either tries each
// address a few times (`rounds`) or keeps going until some server answers (reports that must
// arrive: completion, failure): an answer — accepted or refused — ends it, nothing else does.
import { setTimeout as sleep } from "node:timers/promises";

import {
  isAPIConnectionError,
  isAPIError,
  isAPIUserAbortError,
  type Gauntlet,
  type RequestOptions,
} from "@gauntlet/sdk";

import type { RunnerLog } from "./log.ts";

export interface ServerPoolOptions {
  /** One client per address, in the order given. */
  clients: readonly { url: string; client: Gauntlet }[];
  log: RunnerLog;
  /** The first pause after a round in which no server answered; doubles up to maxPauseMs. */
  pauseMs?: number;
  maxPauseMs?: number;
  /** How long a call that must arrive keeps trying (default 10 minutes). */
  persistMs?: number;
}

export interface CallOptions {
  /** Rounds over every address before giving up; ignored with `untilAnswered`. Default 1. */
  rounds?: number;
  /** Keep trying (up to persistMs) until a server answers. */
  untilAnswered?: boolean;
  signal?: AbortSignal;
}

/** No server answered: a connection failure, a timeout, a 5xx, or a 429. */
export function isNoAnswer(error: unknown): boolean {
  if (isAPIUserAbortError(error)) return false;
  if (isAPIConnectionError(error)) return true;
  return isAPIError(error) && (error.status >= 500 || error.status === 429);
}

export class ServerPool {
  readonly #clients: readonly { url: string; client: Gauntlet }[];
  readonly #log: RunnerLog;
  readonly #pauseMs: number;
  readonly #maxPauseMs: number;
  readonly #persistMs: number;
  #current = 0;

  constructor(options: ServerPoolOptions) {
    if (options.clients.length === 0) throw new Error("a runner needs at least one server");
    this.#clients = options.clients;
    this.#log = options.log;
    this.#pauseMs = options.pauseMs ?? 250;
    this.#maxPauseMs = options.maxPauseMs ?? 5_000;
    this.#persistMs = options.persistMs ?? 600_000;
  }

  /** The address calls go to now. */
  get current(): string {
    return this.#clients[this.#current]?.url ?? "";
  }

  /**
   * Runs `call` on a server, moving on while none answers. Each try is made with the SDK's own
   * retries off (`retries: 0` is merged into `requestOptions`): moving to the next address is
   * the retry, and waiting on a dead one would only delay it.
   */
  async call<T>(
    what: string,
    call: (client: Gauntlet, options: RequestOptions) => Promise<T>,
    requestOptions: RequestOptions = {},
    options: CallOptions = {},
  ): Promise<T> {
    const startedAt = performance.now();
    const deadline = startedAt + this.#persistMs;
    const rounds = options.untilAnswered ? Number.POSITIVE_INFINITY : (options.rounds ?? 1);
    let pauseMs = this.#pauseMs;
    let failures = 0;
    let lastError: unknown;
    for (let round = 0; round < rounds; round += 1) {
      for (let i = 0; i < this.#clients.length; i += 1) {
        const index = this.#current;
        const server = this.#clients[index];
        if (server === undefined) break;
        try {
          const result = await call(server.client, { ...requestOptions, retries: 0 });
          if (failures > 0)
            this.#log.info("a server answers again", {
              call: what,
              server: server.url,
              after_failures: failures,
              after_ms: Math.round(performance.now() - startedAt),
            });
          return result;
        } catch (error) {
          if (!isNoAnswer(error)) throw error;
          lastError = error;
          failures += 1;
          this.#current = (index + 1) % this.#clients.length;
          // One line per call that fails over, not per try: a dead server must not flood the log.
          if (failures === 1 && this.#clients.length > 1)
            this.#log.warn("no answer from a server; trying the next", {
              call: what,
              server: server.url,
              next: this.current,
              error: (error as Error).message,
            });
        }
        if (options.signal?.aborted) throw lastError;
      }
      if (round + 1 >= rounds || performance.now() >= deadline) break;
      // An abort ends the pause early (checked below); nothing else can reject a timer.
      await sleep(pauseMs, undefined, { signal: options.signal }).catch((error: unknown) => {
        if (!(error instanceof Error && error.name === "AbortError")) throw error;
      });
      if (options.signal?.aborted) break;
      pauseMs = Math.min(pauseMs * 2, this.#maxPauseMs);
    }
    throw lastError;
  }
}
