// Whether a failed try is tried again, and after how long. A 429 follows the
// shared pacing rules of core (Retry-After plus jitter, within attempts and deadline); it is
// safe for every method because a refused request never reached its handler.
// A 5xx or a lost connection is retried with exponential backoff only when repeating the
// request cannot do a thing twice: GET/PUT/DELETE, or a write that carries an Idempotency-Key.
import { advise429 } from "@gauntlet/core";

import {
  isAPIConnectionError,
  isAPITimeoutError,
  isInternalServerError,
  isRateLimitError,
  type GauntletError,
} from "./errors.ts";
import type { RetryPolicy, RetryReason } from "./options.ts";

/** Methods whose repetition has the effect of one request (RFC 9110 idempotent methods). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "OPTIONS",
  "PUT",
  "DELETE",
]);

/** 501 and 505 are answers about the request itself; trying again changes nothing. */
const RETRYABLE_5XX: ReadonlySet<number> = new Set([500, 502, 503, 504]);

export type RetryDecision =
  { retry: true; delayMs: number; reason: RetryReason } | { retry: false };

export interface RetryInput {
  error: GauntletError;
  /** The try that failed; 1 for the first. */
  attempt: number;
  elapsedMs: number;
  policy: RetryPolicy;
  /** The request may be repeated: an idempotent method or an Idempotency-Key. */
  replayable: boolean;
  random?: () => number;
}

function retryAfterMs(headers: Headers): number | null {
  const value = headers.get("retry-after")?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) * 1000 : null;
}

/** A 5xx, a timeout or a lost connection: the failures that backoff may cure. */
function retryableFailure(error: GauntletError): { reason: RetryReason; floorMs: number } | null {
  if (isInternalServerError(error))
    return RETRYABLE_5XX.has(error.status)
      ? { reason: "server_error", floorMs: retryAfterMs(error.headers) ?? 0 }
      : null;
  if (isAPITimeoutError(error)) return { reason: "timeout", floorMs: 0 };
  if (isAPIConnectionError(error)) return { reason: "connection", floorMs: 0 };
  return null;
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { error, attempt, elapsedMs, policy } = input;
  const random = input.random ?? Math.random;
  if (isRateLimitError(error)) {
    const advice = advise429({
      status: error.status,
      headers: error.headers,
      body: error.body,
      attempt,
      elapsedMs,
      policy: {
        maxAttempts: policy.maxRetries + 1,
        deadlineMs: policy.deadlineMs,
        maxJitterMs: policy.maxJitterMs,
      },
      random,
    });
    if (!advice.retry || (advice.reason !== "shared_budget" && advice.reason !== "retry_after"))
      return { retry: false };
    return { retry: true, delayMs: advice.delayMs, reason: advice.reason };
  }
  const retryable = retryableFailure(error);
  if (retryable === null) return { retry: false };
  const { reason, floorMs } = retryable;
  if (!input.replayable || attempt > policy.maxRetries) return { retry: false };
  // Exponential backoff with "equal jitter": half fixed, half random, so retries spread out.
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (attempt - 1));
  const delayMs = Math.max(floorMs, Math.round(ceiling / 2 + (random() * ceiling) / 2));
  if (elapsedMs + delayMs > policy.deadlineMs) return { retry: false };
  return { retry: true, delayMs, reason };
}

/** Waits, unless the caller's signal ends the wait first (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // The caller's own abort reason, as fetch rejects with it (an AbortError unless they chose one).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
