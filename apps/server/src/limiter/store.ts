// Where the shared budgets are kept: one process's memory, or Redis for several replicas.
import type { BudgetCapacities, BudgetDecision } from "@gauntlet/core";

export interface BudgetStore {
  /**
   * Decide a request of complexity `cost` for the identity `key` and, when it fits and `debit`
   * is true, debit all four buckets at once. Rejects when the store cannot answer.
   */
  decide(
    key: string,
    caps: BudgetCapacities,
    cost: number,
    debit: boolean,
  ): Promise<BudgetDecision>;
  close(): Promise<void>;
  /** Settles once the store can first be asked (a connection is made) or is closed; never
   * rejects, and stays pending while the store is unreachable: wait on it with a bound. */
  readonly ready?: Promise<void>;
  /** True for a store that answers within the call (memory): no timeout needs to race it. */
  readonly inProcess?: boolean;
  /** `decide` answered within the call, for a store in this process; throws when it cannot answer. */
  decideNow?(key: string, caps: BudgetCapacities, cost: number, debit: boolean): BudgetDecision;
  /** For readiness probes of a networked store: resolves when it answers now. */
  ping?(): Promise<void>;
}
