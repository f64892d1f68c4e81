// The launcher of a server with runners: a coworld's commissioner runs on a runner, in its
// sandbox. Opening a session queues a commissioner job (runner-jobs.ts) and waits, up to the
// startup timeout, for the runner that leased it to attach its relay socket (runner-relay.ts),
// whichever replica it reached; the channel then carries the session's messages over it. The
// commissioner's log comes back with the runner's report on the job: reading it ends the session.
import type { Kysely } from "kysely";

import { bestEffort, COMMISSIONER_MESSAGE_MAX_BYTES } from "@gauntlet/core";

import type { Database } from "../../store/schema.ts";
import {
  CommissionerFailure,
  type CommissionerChannel,
  type CommissionerLauncher,
  type CommissionerTarget,
} from "./channel.ts";
import {
  abandonCommissionerJob,
  queueCommissionerJob,
  readCommissionerJob,
} from "./runner-jobs.ts";
import type { CommissionerRelay } from "./runner-relay.ts";

export interface RunnerLauncherOptions {
  /** From queueing to the runner's socket: a runner's lease, the start, `/healthz`. Default 60 s. */
  startupMs?: number;
  /** How long reading the log waits for the runner's report. Default 10 s. */
  logWaitMs?: number;
}

export const DEFAULT_COMMISSIONER_STARTUP_MS = 60_000;

export function runnerCommissionerLauncher(
  db: Kysely<Database>,
  relay: CommissionerRelay,
  options: RunnerLauncherOptions = {},
): CommissionerLauncher {
  const startupMs = options.startupMs ?? DEFAULT_COMMISSIONER_STARTUP_MS;
  const logWaitMs = options.logWaitMs ?? 10_000;
  return {
    async open(target: CommissionerTarget, signal: AbortSignal): Promise<CommissionerChannel> {
      const inbox = new Inbox();
      let attached: () => void = () => undefined;
      const ready = new Promise<void>((resolve) => (attached = resolve));
      // Listening before the job exists: its runner cannot attach sooner than that.
      let stopListening: () => void = () => undefined;
      const job = { id: await queueCommissionerJob(db, target, startupMs) };
      stopListening = relay.listen(job.id, {
        attached,
        message: (text) => inbox.put(text),
        ended: (kind, why) => inbox.end(new CommissionerFailure(kind, why)),
      });
      const giveUp = async (failure: CommissionerFailure): Promise<never> => {
        stopListening();
        relay.close(job.id, failure.message);
        await bestEffort(abandonCommissionerJob(db, job.id, failure.message));
        throw failure;
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        ready.then(() => "attached" as const),
        inbox.ended.then((failure) => failure),
        new Promise<"timeout">(
          (resolve) => (timer = setTimeout(() => resolve("timeout"), startupMs)),
        ),
        new Promise<"stopped">((resolve) =>
          signal.aborted
            ? resolve("stopped")
            : signal.addEventListener("abort", () => resolve("stopped"), { once: true }),
        ),
      ]).finally(() => clearTimeout(timer));
      if (outcome === "timeout")
        return giveUp(
          new CommissionerFailure(
            "startup_timeout",
            `no runner started the commissioner and connected within ${startupMs} ms`,
          ),
        );
      if (outcome === "stopped")
        return giveUp(new CommissionerFailure("disconnected", "the server is stopping"));
      if (outcome !== "attached") return giveUp(outcome);

      let closed = false;
      const close = async (reason: string) => {
        if (closed) return;
        closed = true;
        inbox.end(new CommissionerFailure("disconnected", `closed: ${reason}`));
        relay.close(job.id, reason);
        stopListening();
        await bestEffort(abandonCommissionerJob(db, job.id, reason));
      };
      return {
        send(message) {
          const failure = inbox.failure;
          if (failure) return Promise.reject(failure);
          relay.send(job.id, JSON.stringify(message));
          return Promise.resolve();
        },
        next: (timeoutMs) => inbox.next(timeoutMs),
        close,
        async log() {
          await close("its log was read");
          const until = Date.now() + logWaitMs;
          for (;;) {
            const row = await readCommissionerJob(db, job.id);
            if (row?.log != null) return row.log;
            if (Date.now() > until) return "";
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
      };
    },
  };
}

/**
 * What a session holds unread, at most: the runner throttles a commissioner that writes faster
 * than its relay sends, and this bounds what reaches the driver faster than it reads.
 */
export const INBOX_MAX_CHARS = 4 * COMMISSIONER_MESSAGE_MAX_BYTES;

/** What each message held costs beyond its characters (its slot and string): counted by length
 * alone, a flood of empty messages queued without end. */
const INBOX_MESSAGE_COST_CHARS = 64;

function cost(text: string): number {
  return text.length + INBOX_MESSAGE_COST_CHARS;
}

/** Whole messages as they arrive, read one at a time, until the session ends. */
export class Inbox {
  readonly #queue: string[] = [];
  #held = 0;
  #waiter: ((item: string | CommissionerFailure) => void) | null = null;
  failure: CommissionerFailure | null = null;
  #onEnd: (failure: CommissionerFailure) => void = () => undefined;
  readonly ended = new Promise<CommissionerFailure>((resolve) => (this.#onEnd = resolve));

  put(text: string): void {
    if (this.failure) return;
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter) return waiter(text);
    this.#held += cost(text);
    if (this.#held > INBOX_MAX_CHARS) {
      this.#queue.length = 0;
      this.end(
        new CommissionerFailure("oversized", "more unread messages than the platform holds"),
      );
      return;
    }
    this.#queue.push(text);
  }

  end(failure: CommissionerFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.#onEnd(failure);
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.(failure);
  }

  next(timeoutMs: number): Promise<unknown> {
    const queued = this.#queue.shift();
    if (queued !== undefined) {
      this.#held -= cost(queued);
      return Promise.resolve().then(() => parse(queued));
    }
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = null;
        reject(
          new CommissionerFailure("timeout", `no message from the commissioner in ${timeoutMs} ms`),
        );
      }, timeoutMs);
      this.#waiter = (item) => {
        clearTimeout(timer);
        if (typeof item !== "string") return reject(item);
        try {
          resolve(parse(item));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
    });
  }
}

function parse(text: string): unknown {
  if (Buffer.byteLength(text) > COMMISSIONER_MESSAGE_MAX_BYTES)
    throw new CommissionerFailure("oversized", "a message past the protocol's 16 MiB");
  try {
    return JSON.parse(text);
  } catch {
    throw new CommissionerFailure("malformed", "a message that is not JSON");
  }
}
