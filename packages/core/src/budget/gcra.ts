// The shared-budget decision: four GCRA buckets of one identity, checked together
// and debited all or none. Pure: the caller passes the state and the clock, and stores the
// state it gets back. The Redis script in apps/server mirrors this arithmetic step for step.
import { HOUR_MS, MINUTE_MS, type BudgetCapacities } from "./capacities.ts";

const US_PER_MS = 1_000;
const US_PER_S = 1_000_000;
export const MINUTE_US = MINUTE_MS * US_PER_MS;
export const HOUR_US = HOUR_MS * US_PER_MS;

/**
 * One identity's budget: each bucket's theoretical arrival time (TAT) in whole microseconds
 * since the Unix epoch. A bucket is full when its TAT is not after now; 0 means never used.
 * Microseconds, not milliseconds: a service's complexity bucket refills a credit every
 * 0.625 ms, and whole numbers keep the Redis script (Lua doubles, hash strings) bit-identical.
 */
export interface BudgetState {
  readonly requestsMinute: number;
  readonly requestsHour: number;
  readonly complexityMinute: number;
  readonly complexityHour: number;
}

export type BudgetBucketName = keyof BudgetState;
export const BUDGET_BUCKETS: readonly BudgetBucketName[] = [
  "requestsMinute",
  "requestsHour",
  "complexityMinute",
  "complexityHour",
];

/** What one bucket looks like after a decision (the -Limit, -Remaining, -Reset headers). */
export interface BucketReport {
  /** Capacity in credits. */
  readonly limit: number;
  /** Whole credits left after the decision. */
  readonly remaining: number;
  /** UTC Unix second at which the bucket is full again with no further traffic. */
  readonly resetUnixSeconds: number;
}

export type BudgetBuckets = { readonly [K in BudgetBucketName]: BucketReport };

export interface BudgetDecision {
  /** The cost fits all four buckets. */
  readonly allowed: boolean;
  /** The state to store: debited when allowed, the given state itself otherwise. */
  readonly state: BudgetState;
  readonly buckets: BudgetBuckets;
  /** Whole seconds (rounded up) until the same cost fits all four buckets; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface DecideOptions {
  /**
   * false: a peek. The decision and its numbers are those a debit would give, but the returned
   * state is the given one. Default true.
   */
  readonly debit?: boolean;
}

export const EMPTY_BUDGET_STATE: BudgetState = Object.freeze({
  requestsMinute: 0,
  requestsHour: 0,
  complexityMinute: 0,
  complexityHour: 0,
});

/** Milliseconds (possibly fractional) to the whole microseconds the state is kept in. */
export function toMicros(ms: number): number {
  return Math.round(ms * US_PER_MS);
}

/**
 * Microseconds per credit: the bucket refills at capacity / period. Rounded up to a whole
 * microsecond (exact for the default capacities), so a bucket never refills faster than its rate.
 */
export function creditIntervalUs(capacity: number, periodUs: number): number {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError(`A bucket capacity must be a positive integer, got ${capacity}`);
  return Math.ceil(periodUs / capacity);
}

/** Throws unless `cost` is a complexity a decision accepts: a non-negative integer. */
export function assertComplexity(cost: number): void {
  if (!Number.isInteger(cost) || cost < 0)
    throw new RangeError(`A complexity must be a non-negative integer, got ${cost}`);
}

/** Throws unless every capacity is a positive integer. */
export function assertCapacities(caps: BudgetCapacities): void {
  creditIntervalUs(caps.requestsPerMinute, MINUTE_US);
  creditIntervalUs(caps.requestsPerHour, HOUR_US);
  creditIntervalUs(caps.complexityPerMinute, MINUTE_US);
  creditIntervalUs(caps.complexityPerHour, HOUR_US);
}

/**
 * The TAT after charging `cost` credits. A cost above the capacity can never fit a bucket, and
 * an endpoint must not become unusable because an operator set a capacity below its
 * complexity: such a request is charged the whole capacity instead — it fits once the bucket
 * is full, and empties it.
 */
function chargedTat(
  tat: number,
  nowUs: number,
  cost: number,
  capacity: number,
  interval: number,
): number {
  return (tat > nowUs ? tat : nowUs) + (cost < capacity ? cost : capacity) * interval;
}

function report(limit: number, interval: number, tat: number, nowUs: number): BucketReport {
  const until = tat > nowUs ? tat : nowUs;
  // Clamped: a capacity lowered by an operator can leave a TAT beyond the new tolerance.
  const remaining = Math.floor((limit * interval - (until - nowUs)) / interval);
  return {
    limit,
    remaining: remaining < 0 ? 0 : remaining,
    resetUnixSeconds: Math.ceil(until / US_PER_S),
  };
}

/** The decision for a request of complexity `cost` at `nowMs`. */
export function decideBudget(
  state: BudgetState | undefined,
  caps: BudgetCapacities,
  cost: number,
  nowMs: number,
  opts?: DecideOptions,
): BudgetDecision {
  return decideBudgetAtMicros(state, caps, cost, toMicros(nowMs), opts?.debit ?? true);
}

/** decideBudget with the clock in whole microseconds (the unit of the state and of Redis TIME). */
export function decideBudgetAtMicros(
  state: BudgetState | undefined,
  caps: BudgetCapacities,
  cost: number,
  nowUs: number,
  debit = true,
): BudgetDecision {
  assertComplexity(cost);
  if (!Number.isSafeInteger(nowUs))
    throw new RangeError(`The clock must be whole microseconds, got ${nowUs}`);
  const s = state ?? EMPTY_BUDGET_STATE;

  const rmCap = caps.requestsPerMinute;
  const rhCap = caps.requestsPerHour;
  const cmCap = caps.complexityPerMinute;
  const chCap = caps.complexityPerHour;
  const rmInt = creditIntervalUs(rmCap, MINUTE_US);
  const rhInt = creditIntervalUs(rhCap, HOUR_US);
  const cmInt = creditIntervalUs(cmCap, MINUTE_US);
  const chInt = creditIntervalUs(chCap, HOUR_US);

  const rm = chargedTat(s.requestsMinute, nowUs, 1, rmCap, rmInt);
  const rh = chargedTat(s.requestsHour, nowUs, 1, rhCap, rhInt);
  const cm = chargedTat(s.complexityMinute, nowUs, cost, cmCap, cmInt);
  const ch = chargedTat(s.complexityHour, nowUs, cost, chCap, chInt);

  // How long until each bucket has room for its charge: its new TAT may be at most one
  // tolerance (capacity × interval, the burst) ahead of now.
  const wait =
    Math.max(rm - rmCap * rmInt, rh - rhCap * rhInt, cm - cmCap * cmInt, ch - chCap * chInt) -
    nowUs;
  const allowed = wait <= 0;

  if (allowed) {
    return {
      allowed,
      state: debit
        ? { requestsMinute: rm, requestsHour: rh, complexityMinute: cm, complexityHour: ch }
        : s,
      buckets: {
        requestsMinute: report(rmCap, rmInt, rm, nowUs),
        requestsHour: report(rhCap, rhInt, rh, nowUs),
        complexityMinute: report(cmCap, cmInt, cm, nowUs),
        complexityHour: report(chCap, chInt, ch, nowUs),
      },
      retryAfterSeconds: 0,
    };
  }
  return {
    allowed,
    state: s,
    buckets: {
      requestsMinute: report(rmCap, rmInt, s.requestsMinute, nowUs),
      requestsHour: report(rhCap, rhInt, s.requestsHour, nowUs),
      complexityMinute: report(cmCap, cmInt, s.complexityMinute, nowUs),
      complexityHour: report(chCap, chInt, s.complexityHour, nowUs),
    },
    retryAfterSeconds: Math.ceil(wait / US_PER_S),
  };
}

/** The microsecond at which all four buckets are full again; a store may forget the state then. */
export function budgetFullAtMicros(state: BudgetState): number {
  return Math.max(
    state.requestsMinute,
    state.requestsHour,
    state.complexityMinute,
    state.complexityHour,
  );
}

/** All four buckets are full: the state says nothing a fresh budget would not. */
export function isBudgetFull(state: BudgetState, nowMs: number): boolean {
  return budgetFullAtMicros(state) <= toMicros(nowMs);
}
