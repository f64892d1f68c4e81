// Client pacing of docs/architecture.md, shared by the SDK, CLI and TUI: when a 429 may be retried, and when.
import { RATE_LIMIT_ERROR_TYPE } from "../models/errors.ts";
import { RATE_LIMIT_RETRY_AFTER_HEADER, readHeader, RETRY_AFTER_HEADER } from "./headers.ts";

export interface PacingPolicy {
  /** Tries in all, the first one included. */
  maxAttempts: number;
  /** No retry is scheduled that would start later than this many ms after the first try. */
  deadlineMs: number;
  /** Up to this many ms are added at random to each wait, so that clients spread out. */
  maxJitterMs: number;
}

export const DEFAULT_PACING: PacingPolicy = Object.freeze({
  maxAttempts: 4,
  deadlineMs: 120_000,
  maxJitterMs: 1_000,
});

export interface RetryAdvice {
  retry: boolean;
  /** The wait before the next try; when retry is false, the wait that was needed (0 for none). */
  delayMs: number;
  reason: "shared_budget" | "retry_after" | "none" | "deadline" | "attempts";
}

export interface Advise429Input {
  status: number;
  headers: Headers | Record<string, string | undefined>;
  body: unknown;
  /** 1 for the first try. */
  attempt: number;
  /** Time since the first try started. */
  elapsedMs: number;
  policy?: PacingPolicy;
  /** [0, 1), Math.random by default. */
  random?: () => number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The body of a shared-budget 429: `detail.type` is the stable discriminator. */
export function isSharedBudgetRejection(body: unknown): boolean {
  return isRecord(body) && isRecord(body.detail) && body.detail.type === RATE_LIMIT_ERROR_TYPE;
}

/** A standard Retry-After: delay-seconds, or an HTTP date (relative to the response's Date). */
function retryAfterSeconds(headers: Advise429Input["headers"]): number | null {
  const value = readHeader(headers, RETRY_AFTER_HEADER)?.trim();
  if (value === undefined || value === "") return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  // The server's own Date header, when present, cancels out any skew of our clock.
  const served = Date.parse(readHeader(headers, "Date") ?? "");
  const now = Number.isNaN(served) ? Date.now() : served;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The wait a shared-budget rejection asks for: the largest it states anywhere, at least 1 s. */
function sharedBudgetSeconds(headers: Advise429Input["headers"], body: unknown): number {
  let seconds = 1;
  const standard = retryAfterSeconds(headers);
  if (standard !== null) seconds = Math.max(seconds, standard);
  const own = readHeader(headers, RATE_LIMIT_RETRY_AFTER_HEADER)?.trim();
  if (own !== undefined && /^\d+$/.test(own)) seconds = Math.max(seconds, Number(own));
  if (isRecord(body) && isRecord(body.detail)) {
    const stated = body.detail.retry_after_seconds;
    if (typeof stated === "number" && Number.isFinite(stated))
      seconds = Math.max(seconds, Math.ceil(stated));
  }
  return seconds;
}

/**
 * For a response with status 429: whether and when to retry. Any other status is never
 * retried here — a 200 carrying budget headers least of all. A shared-budget 429
 * waits at least its Retry-After plus jitter; another 429 is retried only when it carries a
 * standard Retry-After. Either way only within the policy's attempts and deadline.
 */
export function advise429(input: Advise429Input): RetryAdvice {
  if (input.status !== 429) return { retry: false, delayMs: 0, reason: "none" };
  const policy = input.policy ?? DEFAULT_PACING;
  let seconds: number;
  let reason: "shared_budget" | "retry_after";
  if (isSharedBudgetRejection(input.body)) {
    seconds = sharedBudgetSeconds(input.headers, input.body);
    reason = "shared_budget";
  } else {
    const standard = retryAfterSeconds(input.headers);
    if (standard === null) return { retry: false, delayMs: 0, reason: "none" };
    seconds = standard;
    reason = "retry_after";
  }
  const jitter = (input.random ?? Math.random)() * policy.maxJitterMs;
  const delayMs = Math.ceil(seconds * 1000 + Math.max(0, Math.min(policy.maxJitterMs, jitter)));
  if (input.attempt >= policy.maxAttempts) return { retry: false, delayMs, reason: "attempts" };
  if (input.elapsedMs + delayMs > policy.deadlineMs)
    return { retry: false, delayMs, reason: "deadline" };
  return { retry: true, delayMs, reason };
}
