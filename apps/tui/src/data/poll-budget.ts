// How often to poll when live events cannot be had: a share of the caller's shared budget, read
// from the rate-limit headers of the latest response, so that watching never starves
// the caller's other work. Without budget headers (anonymous callers) a fixed, modest pace.
import { HOUR_MS, MINUTE_MS, type BudgetSnapshot } from "@gauntlet/core";

export interface PollCost {
  /** Requests one poll cycle makes at most. */
  requests: number;
  /** Complexity one poll cycle spends at most. */
  complexity: number;
}

export interface PollPace {
  /** The share of each bucket polling may use, in (0, 1]. Default 0.1. */
  share?: number;
  /** Never faster than this. Default 2 000 ms. */
  floorMs?: number;
  /** Never slower than this. Default 60 000 ms. */
  ceilingMs?: number;
  /** When no budget headers were seen. Default 5 000 ms. */
  unknownMs?: number;
}

/** A poll: the feed, and what it may make the screen fetch (standings, a round and its episodes). */
export const POLL_CYCLE_COST: PollCost = { requests: 4, complexity: 31 };

export function pollIntervalMs(
  snapshot: BudgetSnapshot | null,
  cost: PollCost = POLL_CYCLE_COST,
  pace: PollPace = {},
  now: number = Date.now(),
): number {
  const share = Math.min(1, Math.max(0.001, pace.share ?? 0.1));
  const floor = pace.floorMs ?? 2_000;
  const ceiling = pace.ceilingMs ?? 60_000;
  if (snapshot === null) return clamp(pace.unknownMs ?? 5_000, floor, ceiling);
  const buckets = [
    { report: snapshot.buckets.requestsMinute, windowMs: MINUTE_MS, spend: cost.requests },
    { report: snapshot.buckets.requestsHour, windowMs: HOUR_MS, spend: cost.requests },
    { report: snapshot.buckets.complexityMinute, windowMs: MINUTE_MS, spend: cost.complexity },
    { report: snapshot.buckets.complexityHour, windowMs: HOUR_MS, spend: cost.complexity },
  ];
  let interval = floor;
  let known = false;
  for (const { report, windowMs, spend } of buckets) {
    if (report === null || report.limit <= 0) continue;
    known = true;
    // At `share` of the bucket's rate, one cycle every windowMs · spend / (share · limit).
    interval = Math.max(interval, (windowMs * spend) / (share * report.limit));
    // A bucket nearly spent (by us or the caller's other clients): wait until it has refilled.
    if (report.remaining < spend * 2)
      interval = Math.max(interval, report.resetUnixSeconds * 1000 - now);
  }
  if (snapshot.retryAfterSeconds !== null && snapshot.outcome !== "allowed")
    interval = Math.max(interval, snapshot.retryAfterSeconds * 1000);
  if (!known) interval = Math.max(interval, pace.unknownMs ?? 5_000);
  return Math.round(clamp(interval, floor, ceiling));
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
