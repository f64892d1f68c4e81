// The shared-budget limiter of docs/architecture.md: one evaluation per authenticated request, after
// authentication and before validation. It answers with the outcome, the headers of docs/architecture.md
// and, for an enforced rejection, the 429 of docs/api.md. It fails open.
import {
  ANONYMOUS_CAPACITIES,
  assertCapacities,
  budgetHeaders,
  RATE_LIMIT_ERROR_TYPE,
  type BudgetCapacities,
  type BudgetCapacitiesPatch,
  type BudgetDecision,
  type BudgetMode,
  type RateLimitErrorBody,
} from "@gauntlet/core";

import { budgetHeaderLines } from "./header-lines.ts";
import type { BudgetStore } from "./store.ts";

export type LimiterMode = BudgetMode | "off";
export type LimiterOutcome = "allowed" | "would_reject" | "rejected" | "unavailable" | "off";

export type BudgetKind = "user" | "machine" | "anonymous";

export interface BudgetSubject {
  /**
   * The identity whose budget is drawn: the owner user for players, the machine for machines,
   * the client address for anonymous callers (http/client-address.ts).
   */
  budgetKey: string;
  kind: BudgetKind;
}

/** The default capacities of each kind; anonymous ones default to core's ANONYMOUS_CAPACITIES. */
export interface KindCapacities {
  user: BudgetCapacities;
  machine: BudgetCapacities;
  anonymous?: BudgetCapacities;
}

export interface LimiterResult {
  outcome: LimiterOutcome;
  /** To set on the response, whatever its status (none when the mode is off). */
  readonly headers: Record<string, string>;
  /** The same headers as the lines of a header block ("name: value\r\n" each), to write as they are. */
  readonly lines: string;
  /** Present for an enforced rejection: send it as the response; do not run the handler. */
  rejection?: { status: 429; body: RateLimitErrorBody };
}

export interface CircuitBreakerOptions {
  /** Consecutive store failures (errors or timeouts) that open the circuit. */
  failures: number;
  /** While open, the store is not asked; after this long one request probes it. */
  cooldownMs: number;
}

export interface LimiterOptions {
  mode: LimiterMode;
  store: BudgetStore;
  capacities: KindCapacities;
  /** Per budget key, capacities laid over those of its kind. */
  overrides?: Record<string, BudgetCapacitiesPatch>;
  /** A store that has not answered after this long is treated as failed. Default 50. */
  storeTimeoutMs?: number;
  breaker?: CircuitBreakerOptions;
  /** The page a 429 links to. */
  documentationUrl: string;
  /** Store failures, for the log; the request proceeds regardless. */
  onStoreError?: (error: Error) => void;
  /** Milliseconds; Date.now by default. Drives only the circuit breaker. */
  clock?: () => number;
}

/** The capacities in force, for the page a 429 links to (per-identity overrides stay private). */
export interface LimiterDescription {
  mode: LimiterMode;
  rows: {
    identity: string;
    requestsPerMinute: number;
    requestsPerHour: number;
    complexityPerMinute: number;
    complexityPerHour: number;
  }[];
}

export function describeCapacities(
  mode: LimiterMode,
  capacities: KindCapacities,
): LimiterDescription {
  return {
    mode,
    rows: [
      { identity: "User and owned players", ...capacities.user },
      { identity: "Service (machine identity)", ...capacities.machine },
      {
        identity: "Anonymous, per client address",
        ...(capacities.anonymous ?? ANONYMOUS_CAPACITIES),
      },
    ],
  };
}

export interface Limiter {
  readonly mode: LimiterMode;
  /** A check for /readyz, when the store is networked (Redis). */
  readonly readiness?: { name: string; check(): Promise<void> };
  describe(): LimiterDescription;
  evaluate(subject: BudgetSubject, complexity: number): Promise<LimiterResult>;
  /**
   * The same evaluation answered within the call, when the store is in this process and the
   * circuit is closed; undefined otherwise (use evaluate). Spares the hot path a promise.
   */
  evaluateNow(subject: BudgetSubject, complexity: number): LimiterResult | undefined;
  /** The store's `ready` (Redis connected); pending while unreachable, so bound any wait on it. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const OFF: LimiterResult = Object.freeze({ outcome: "off", headers: {}, lines: "" });

/**
 * A decision's result. The hot path writes `lines`, built once here; the headers as a record
 * (for tests and callers that read them) are built only when asked for.
 */
class Judged implements LimiterResult {
  readonly outcome: "allowed" | "would_reject" | "rejected";
  readonly lines: string;
  readonly rejection?: { status: 429; body: RateLimitErrorBody };
  readonly #decision: BudgetDecision;
  readonly #mode: BudgetMode;
  readonly #complexity: number;

  constructor(
    outcome: "allowed" | "would_reject" | "rejected",
    decision: BudgetDecision,
    mode: BudgetMode,
    complexity: number,
    rejection?: { status: 429; body: RateLimitErrorBody },
  ) {
    this.outcome = outcome;
    this.#decision = decision;
    this.#mode = mode;
    this.#complexity = complexity;
    this.lines = budgetHeaderLines(decision, mode, outcome, complexity);
    if (rejection) this.rejection = rejection;
  }

  get headers(): Record<string, string> {
    return budgetHeaders(this.#decision, {
      mode: this.#mode,
      outcome: this.outcome,
      complexity: this.#complexity,
    });
  }
}

const DEFAULT_BREAKER: CircuitBreakerOptions = { failures: 3, cooldownMs: 1_000 };
const TIMED_OUT = Symbol("timed out");

class StoreTimeoutError extends Error {
  override readonly name = "StoreTimeoutError";
}

function decideWithin(
  store: BudgetStore,
  key: string,
  caps: BudgetCapacities,
  cost: number,
  timeoutMs: number,
): Promise<BudgetDecision> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
  });
  return Promise.race([store.decide(key, caps, cost, true), timeout]).then(
    (answer) => {
      clearTimeout(timer);
      if (answer === TIMED_OUT)
        throw new StoreTimeoutError(`The budget store did not answer within ${timeoutMs} ms`);
      return answer;
    },
    (error: unknown) => {
      clearTimeout(timer);
      throw error instanceof Error ? error : new Error(String(error));
    },
  );
}

export function createLimiter(options: LimiterOptions): Limiter {
  const { mode, store, documentationUrl } = options;
  const timeoutMs = options.storeTimeoutMs ?? 50;
  const breaker = options.breaker ?? DEFAULT_BREAKER;
  const clock = options.clock ?? Date.now;
  const overridden = new Map<string, BudgetCapacities>();
  const capacities: Record<BudgetKind, BudgetCapacities> = {
    user: options.capacities.user,
    machine: options.capacities.machine,
    anonymous: options.capacities.anonymous ?? ANONYMOUS_CAPACITIES,
  };
  for (const caps of Object.values(capacities)) assertCapacities(caps);
  for (const [key, patch] of Object.entries(options.overrides ?? {})) {
    // A key names a user, a machine or a client address; the request says which, so merge
    // over every kind's defaults.
    for (const kind of ["user", "machine", "anonymous"] as const) {
      const caps = { ...capacities[kind], ...patch };
      assertCapacities(caps);
      overridden.set(`${kind}:${key}`, caps);
    }
  }

  // Circuit breaker: after repeated failures the store is left alone for a while, so a dead
  // store costs requests nothing and is not hammered; then a single request probes it.
  let consecutiveFailures = 0;
  let openUntil = 0;
  let probing = false;

  function unavailable(bucketMode: BudgetMode, complexity: number): LimiterResult {
    return {
      outcome: "unavailable",
      headers: budgetHeaders(null, { mode: bucketMode, outcome: "unavailable", complexity }),
      lines: budgetHeaderLines(null, bucketMode, "unavailable", complexity),
    };
  }

  /** The outcome, headers and (when enforced and over budget) the 429 of one decision. */
  function judge(decision: BudgetDecision, mode: BudgetMode, complexity: number): LimiterResult {
    if (decision.allowed) return new Judged("allowed", decision, mode, complexity);
    if (mode === "log-only") return new Judged("would_reject", decision, mode, complexity);
    const retryAfterSeconds = Math.max(1, decision.retryAfterSeconds);
    return new Judged("rejected", decision, mode, complexity, {
      status: 429,
      body: {
        detail: {
          type: RATE_LIMIT_ERROR_TYPE,
          message: `Shared budget exceeded: this request (complexity ${complexity}) fits again in ${retryAfterSeconds} s.`,
          retry_after_seconds: retryAfterSeconds,
          documentation_url: documentationUrl,
        },
      },
    });
  }

  // A subject's store key, kept per budget key: a cached identity brings the same key string on
  // every request, so the store key handed out is the same string too, its hash computed once for
  // the lookups below (bench/hot-path). Bounded; past the bound it starts over.
  const storeKeys: Record<BudgetKind, Map<string, string>> = {
    user: new Map(),
    machine: new Map(),
    anonymous: new Map(),
  };
  function storeKeyOf(subject: BudgetSubject): string {
    const keys = storeKeys[subject.kind];
    let key = keys.get(subject.budgetKey);
    if (key === undefined) {
      if (keys.size >= 10_000) keys.clear();
      key = `${subject.kind}:${subject.budgetKey}`;
      keys.set(subject.budgetKey, key);
    }
    return key;
  }

  const description = describeCapacities(mode, options.capacities);
  const decideNow = store.inProcess ? store.decideNow?.bind(store) : undefined;
  const ping = store.ping?.bind(store);

  return {
    mode,
    ...(ping ? { readiness: { name: "budgets", check: ping } } : {}),
    describe: () => description,
    async evaluate(subject, complexity) {
      if (mode === "off") return OFF;
      const storeKey = storeKeyOf(subject);
      const caps = overridden.get(storeKey) ?? capacities[subject.kind];

      const open = consecutiveFailures >= breaker.failures;
      if (open && (clock() < openUntil || probing)) return unavailable(mode, complexity);
      if (open) probing = true;

      let decision: BudgetDecision;
      try {
        // A timer per request only for a store that may not answer (a network away).
        decision = await (store.inProcess
          ? store.decide(storeKey, caps, complexity, true)
          : decideWithin(store, storeKey, caps, complexity, timeoutMs));
      } catch (error) {
        consecutiveFailures++;
        if (consecutiveFailures >= breaker.failures) openUntil = clock() + breaker.cooldownMs;
        if (open) probing = false;
        options.onStoreError?.(error instanceof Error ? error : new Error(String(error)));
        return unavailable(mode, complexity);
      }
      consecutiveFailures = 0;
      if (open) probing = false;

      return judge(decision, mode, complexity);
    },
    evaluateNow(subject, complexity) {
      if (mode === "off") return OFF;
      if (!decideNow || consecutiveFailures > 0) return undefined;
      const storeKey = storeKeyOf(subject);
      let decision: BudgetDecision;
      try {
        decision = decideNow(
          storeKey,
          overridden.get(storeKey) ?? capacities[subject.kind],
          complexity,
          true,
        );
      } catch {
        // Counted and reported by the asynchronous path, which the caller takes instead.
        return undefined;
      }
      return judge(decision, mode, complexity);
    },
    ready() {
      return store.ready ?? Promise.resolve();
    },
    close() {
      return store.close();
    },
  };
}
