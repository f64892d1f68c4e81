// What the request pipeline needs of the shared-budget limiter (apps/server/src/limiter):
// a decision for one identity and cost, with the headers of docs/architecture.md and, when enforced
// and over budget, the 429 to send instead of running the handler.
export interface BudgetSubject {
  readonly key: string;
  readonly kind: "user" | "machine" | "anonymous";
}

export interface BudgetGateResult {
  readonly headers: Record<string, string>;
  /** The same headers as header-block lines ("name: value\r\n" each), written as they are. */
  readonly lines: string;
  readonly rejection?: { readonly status: number; readonly body: unknown } | undefined;
}

export interface BudgetGate {
  evaluate(
    subject: { budgetKey: string; kind: "user" | "machine" | "anonymous" },
    complexity: number,
  ): Promise<BudgetGateResult>;
  /** The same, answered within the call where the budgets are in this process; undefined when it must wait. */
  evaluateNow?(
    subject: { budgetKey: string; kind: "user" | "machine" | "anonymous" },
    complexity: number,
  ): BudgetGateResult | undefined;
  close(): Promise<void>;
}
