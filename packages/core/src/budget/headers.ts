// The budget headers of docs/architecture.md: written by the server from a decision, read back by clients.
import { z } from "zod";

import type { BucketReport, BudgetBucketName, BudgetDecision } from "./gcra.ts";

export const BudgetMode = z.enum(["enforced", "log-only"]);
export const BudgetOutcome = z.enum(["allowed", "would_reject", "rejected", "unavailable"]);
export type BudgetMode = z.infer<typeof BudgetMode>;
export type BudgetOutcome = z.infer<typeof BudgetOutcome>;

export const COMPLEXITY_HEADER = "X-Complexity";
export const RATE_LIMIT_MODE_HEADER = "X-RateLimit-Mode";
export const RATE_LIMIT_OUTCOME_HEADER = "X-RateLimit-Outcome";
export const RATE_LIMIT_RETRY_AFTER_HEADER = "X-RateLimit-Retry-After";
export const RETRY_AFTER_HEADER = "Retry-After";

/** Each bucket's header prefix; the headers are the prefix + `-Limit`, `-Remaining`, `-Reset`. */
export const BUCKET_HEADER_PREFIXES: { readonly [K in BudgetBucketName]: string } = {
  requestsMinute: "X-RateLimit-Requests-Minute",
  requestsHour: "X-RateLimit-Requests-Hour",
  complexityMinute: "X-RateLimit-Complexity-Minute",
  complexityHour: "X-RateLimit-Complexity-Hour",
};

const BUCKET_NAMES = Object.keys(BUCKET_HEADER_PREFIXES) as BudgetBucketName[];

/** Each bucket's three header names, built once: a response writes all twelve. */
const BUCKET_HEADERS = BUCKET_NAMES.map((name) => {
  const prefix = BUCKET_HEADER_PREFIXES[name];
  return {
    name,
    limit: `${prefix}-Limit`,
    remaining: `${prefix}-Remaining`,
    reset: `${prefix}-Reset`,
  };
});

/** Every header name of docs/architecture.md, e.g. for CORS `Access-Control-Expose-Headers`. */
export const BUDGET_HEADER_NAMES: readonly string[] = [
  COMPLEXITY_HEADER,
  RATE_LIMIT_MODE_HEADER,
  RATE_LIMIT_OUTCOME_HEADER,
  RATE_LIMIT_RETRY_AFTER_HEADER,
  RETRY_AFTER_HEADER,
  ...BUCKET_NAMES.flatMap((name) => {
    const prefix = BUCKET_HEADER_PREFIXES[name];
    return [`${prefix}-Limit`, `${prefix}-Remaining`, `${prefix}-Reset`];
  }),
];

export interface BudgetHeaderContext {
  readonly mode: BudgetMode;
  readonly outcome: BudgetOutcome;
  readonly complexity: number;
}

/**
 * The headers of one evaluated request. Without a decision (the store was unavailable and the
 * budgets failed open: docs/architecture.md, "Shared budgets") only the cost, mode and outcome
 * are sent. Retry-After only on an enforced rejection.
 */
export function budgetHeaders(
  decision: BudgetDecision | null,
  ctx: BudgetHeaderContext,
): Record<string, string> {
  const headers: Record<string, string> = {
    [COMPLEXITY_HEADER]: String(ctx.complexity),
    [RATE_LIMIT_MODE_HEADER]: ctx.mode,
    [RATE_LIMIT_OUTCOME_HEADER]: ctx.outcome,
  };
  if (decision === null || ctx.outcome === "unavailable") return headers;
  const rejected = ctx.mode === "enforced" && ctx.outcome === "rejected";
  // A rejection always has something to wait for; the two retry headers agree.
  const retryAfter = String(
    rejected ? Math.max(1, decision.retryAfterSeconds) : decision.retryAfterSeconds,
  );
  headers[RATE_LIMIT_RETRY_AFTER_HEADER] = retryAfter;
  if (rejected) headers[RETRY_AFTER_HEADER] = retryAfter;
  for (const names of BUCKET_HEADERS) {
    const bucket = decision.buckets[names.name];
    headers[names.limit] = String(bucket.limit);
    headers[names.remaining] = String(bucket.remaining);
    headers[names.reset] = String(bucket.resetUnixSeconds);
  }
  return headers;
}

/** Response headers as fetch gives them, or as Node's `IncomingHttpHeaders` / a plain record. */
export type HeaderSource =
  Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function isFetchHeaders(headers: HeaderSource): headers is Headers {
  return typeof headers.get === "function" && typeof headers.has === "function";
}

/** One header's value, by case-insensitive name; the first of repeated values. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    return typeof value === "string" ? value : value?.[0];
  }
  return undefined;
}

function readCount(headers: HeaderSource, name: string): number | null {
  const value = readHeader(headers, name)?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** What a client learns about its budget from one response. */
export interface BudgetSnapshot {
  readonly mode: BudgetMode;
  readonly outcome: BudgetOutcome;
  readonly complexity: number | null;
  /** X-RateLimit-Retry-After; null when absent (e.g. unavailable). */
  readonly retryAfterSeconds: number | null;
  /** Each bucket, or null when its headers are absent (e.g. unavailable). */
  readonly buckets: { readonly [K in BudgetBucketName]: BucketReport | null };
}

function readBucket(headers: HeaderSource, name: BudgetBucketName): BucketReport | null {
  const prefix = BUCKET_HEADER_PREFIXES[name];
  const limit = readCount(headers, `${prefix}-Limit`);
  const remaining = readCount(headers, `${prefix}-Remaining`);
  const resetUnixSeconds = readCount(headers, `${prefix}-Reset`);
  if (limit === null || remaining === null || resetUnixSeconds === null) return null;
  return { limit, remaining, resetUnixSeconds };
}

/** The budget headers of a response, or null when it carries none (anonymous, exempt, mode off). */
export function readBudgetSnapshot(headers: HeaderSource): BudgetSnapshot | null {
  const mode = BudgetMode.safeParse(readHeader(headers, RATE_LIMIT_MODE_HEADER)?.trim());
  const outcome = BudgetOutcome.safeParse(readHeader(headers, RATE_LIMIT_OUTCOME_HEADER)?.trim());
  if (!mode.success || !outcome.success) return null;
  return {
    mode: mode.data,
    outcome: outcome.data,
    complexity: readCount(headers, COMPLEXITY_HEADER),
    retryAfterSeconds: readCount(headers, RATE_LIMIT_RETRY_AFTER_HEADER),
    buckets: {
      requestsMinute: readBucket(headers, "requestsMinute"),
      requestsHour: readBucket(headers, "requestsHour"),
      complexityMinute: readBucket(headers, "complexityMinute"),
      complexityHour: readBucket(headers, "complexityHour"),
    },
  };
}
