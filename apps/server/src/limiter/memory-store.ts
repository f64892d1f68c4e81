// Budgets in this process's memory: the embedded default, for one server replica.
import {
  budgetFullAtMicros,
  decideBudget,
  toMicros,
  type BudgetCapacities,
  type BudgetDecision,
  type BudgetState,
} from "@gauntlet/core";

import type { BudgetStore } from "./store.ts";

export interface MemoryBudgetStoreOptions {
  /** Milliseconds since the Unix epoch; Date.now by default (tests pass a fake clock). */
  clock?: () => number;
  /** How often, by that clock, identities whose buckets are all full again are forgotten. */
  sweepIntervalMs?: number;
}

export class MemoryBudgetStore implements BudgetStore {
  readonly inProcess = true;
  readonly #budgets = new Map<string, BudgetState>();
  readonly #clock: () => number;
  readonly #sweepIntervalMs: number;
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryBudgetStoreOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Identities currently remembered. */
  get size(): number {
    return this.#budgets.size;
  }

  decideNow(key: string, caps: BudgetCapacities, cost: number, debit: boolean): BudgetDecision {
    const now = this.#clock();
    if (now >= this.#nextSweepAt) this.#sweep(now);
    const decision = decideBudget(this.#budgets.get(key), caps, cost, now, { debit });
    if (decision.allowed && debit) this.#budgets.set(key, decision.state);
    return decision;
  }

  decide(
    key: string,
    caps: BudgetCapacities,
    cost: number,
    debit: boolean,
  ): Promise<BudgetDecision> {
    try {
      return Promise.resolve(this.decideNow(key, caps, cost, debit));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): Promise<void> {
    this.#budgets.clear();
    return Promise.resolve();
  }

  // A full budget is indistinguishable from a fresh one, so memory holds only the identities
  // active within about the last hour (the longest refill), however many have ever called.
  #sweep(now: number): void {
    this.#nextSweepAt = now + this.#sweepIntervalMs;
    const nowUs = toMicros(now);
    for (const [key, state] of this.#budgets) {
      if (budgetFullAtMicros(state) <= nowUs) this.#budgets.delete(key);
    }
  }
}
