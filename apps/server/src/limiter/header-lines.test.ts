import { describe, expect, it } from "vitest";

import {
  budgetHeaders,
  decideBudget,
  USER_CAPACITIES,
  type BudgetDecision,
  type BudgetMode,
  type BudgetOutcome,
  type BudgetState,
} from "@gauntlet/core";

import { budgetHeaderLines } from "./header-lines.ts";

const T0 = 1_700_000_000_000;

function exhausted(): BudgetState {
  let state: BudgetState | undefined;
  for (let i = 0; i < 24; i++) state = decideBudget(state, USER_CAPACITIES, 1000, T0).state;
  if (!state) throw new Error("no state");
  return state;
}

/** The lines as [name, value] pairs, in order, as a client's parser reads them. */
function parse(lines: string): [string, string][] {
  expect(lines.endsWith("\r\n")).toBe(true);
  return lines
    .slice(0, -2)
    .split("\r\n")
    .map((line) => {
      const at = line.indexOf(": ");
      return [line.slice(0, at), line.slice(at + 2)];
    });
}

describe("budgetHeaderLines", () => {
  const allowed = decideBudget(undefined, USER_CAPACITIES, 10, T0);
  const over = decideBudget(exhausted(), USER_CAPACITIES, 1000, T0);
  const cases: [BudgetDecision | null, BudgetMode, BudgetOutcome, number][] = [
    [allowed, "enforced", "allowed", 10],
    [allowed, "log-only", "allowed", 10],
    [over, "enforced", "rejected", 1000],
    [over, "log-only", "would_reject", 1000],
    [null, "enforced", "unavailable", 50],
  ];

  it.each(cases)(
    "are budgetHeaders' names (lower-cased), values and order: %#",
    (decision, mode, outcome, complexity) => {
      const record = budgetHeaders(decision, { mode, outcome, complexity });
      expect(parse(budgetHeaderLines(decision, mode, outcome, complexity))).toEqual(
        Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]),
      );
    },
  );

  it("carries Retry-After on an enforced rejection only", () => {
    expect(budgetHeaderLines(over, "enforced", "rejected", 1000)).toContain(
      "\r\nretry-after: 3\r\n",
    );
    expect(budgetHeaderLines(over, "log-only", "would_reject", 1000)).not.toContain(
      "\r\nretry-after:",
    );
  });
});
