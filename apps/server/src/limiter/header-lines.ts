// The budget headers (docs/api.md, "Conventions") in their final form: the lines of an HTTP/1.1
// header block ("name: value\r\n" each), built from the decision in one pass and written by the
// response as they are (http/prepared-headers-response.ts). The same names, values and order as
// core's `budgetHeaders`, with the names lower-cased as the server has always sent them.
import {
  BUCKET_HEADER_PREFIXES,
  COMPLEXITY_HEADER,
  RATE_LIMIT_MODE_HEADER,
  RATE_LIMIT_OUTCOME_HEADER,
  RATE_LIMIT_RETRY_AFTER_HEADER,
  RETRY_AFTER_HEADER,
  type BudgetDecision,
  type BudgetMode,
  type BudgetOutcome,
} from "@gauntlet/core";

const line = (name: string) => `${name.toLowerCase()}: `;
// Each value is followed by the end of its line and the next line's name, joined here once: a
// request then adds one constant piece per value (bench/hot-path counts every concatenation).
const next = (name: string) => `\r\n${line(name)}`;
const COMPLEXITY = line(COMPLEXITY_HEADER);
const RETRY_AFTER = next(RETRY_AFTER_HEADER);
const bucket = (prefix: string) => ({
  limit: next(`${prefix}-Limit`),
  remaining: next(`${prefix}-Remaining`),
  reset: next(`${prefix}-Reset`),
});
const RM = bucket(BUCKET_HEADER_PREFIXES.requestsMinute);
const RH = bucket(BUCKET_HEADER_PREFIXES.requestsHour);
const CM = bucket(BUCKET_HEADER_PREFIXES.complexityMinute);
const CH = bucket(BUCKET_HEADER_PREFIXES.complexityHour);

/** The mode and outcome lines after the cost's value, and (when a decision follows) the next name. */
const modeAndOutcome = (mode: BudgetMode, outcome: BudgetOutcome, more: boolean) =>
  `${next(RATE_LIMIT_MODE_HEADER)}${mode}${next(RATE_LIMIT_OUTCOME_HEADER)}${outcome}` +
  (more ? next(RATE_LIMIT_RETRY_AFTER_HEADER) : "\r\n");
const byModeAndOutcome = (more: boolean) => {
  const outcomes = (mode: BudgetMode) => ({
    allowed: modeAndOutcome(mode, "allowed", more),
    would_reject: modeAndOutcome(mode, "would_reject", more),
    rejected: modeAndOutcome(mode, "rejected", more),
    unavailable: modeAndOutcome(mode, "unavailable", more),
  });
  return { enforced: outcomes("enforced"), "log-only": outcomes("log-only") };
};
const WITH_DECISION: Readonly<Record<BudgetMode, Record<BudgetOutcome, string>>> =
  byModeAndOutcome(true);
const WITHOUT_DECISION: Readonly<Record<BudgetMode, Record<BudgetOutcome, string>>> =
  byModeAndOutcome(false);

/**
 * The header lines of one evaluated request. Without a decision (the store was unavailable,
 * docs/api.md "Budgets") only the cost, mode and outcome; Retry-After only on an enforced
 * rejection.
 */
export function budgetHeaderLines(
  decision: BudgetDecision | null,
  mode: BudgetMode,
  outcome: BudgetOutcome,
  complexity: number,
): string {
  if (decision === null || outcome === "unavailable")
    return `${COMPLEXITY}${complexity}${WITHOUT_DECISION[mode][outcome]}`;
  const rejected = mode === "enforced" && outcome === "rejected";
  const retryAfter = rejected
    ? Math.max(1, decision.retryAfterSeconds)
    : decision.retryAfterSeconds;
  const {
    requestsMinute: rm,
    requestsHour: rh,
    complexityMinute: cm,
    complexityHour: ch,
  } = decision.buckets;
  return (
    `${COMPLEXITY}${complexity}${WITH_DECISION[mode][outcome]}${retryAfter}` +
    `${rejected ? `${RETRY_AFTER}${retryAfter}` : ""}` +
    `${RM.limit}${rm.limit}${RM.remaining}${rm.remaining}${RM.reset}${rm.resetUnixSeconds}` +
    `${RH.limit}${rh.limit}${RH.remaining}${rh.remaining}${RH.reset}${rh.resetUnixSeconds}` +
    `${CM.limit}${cm.limit}${CM.remaining}${cm.remaining}${CM.reset}${cm.resetUnixSeconds}` +
    `${CH.limit}${ch.limit}${CH.remaining}${ch.remaining}${CH.reset}${ch.resetUnixSeconds}\r\n`
  );
}
