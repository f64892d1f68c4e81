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
const COMPLEXITY = line(COMPLEXITY_HEADER);
const MODE = line(RATE_LIMIT_MODE_HEADER);
const OUTCOME = line(RATE_LIMIT_OUTCOME_HEADER);
const RETRY = line(RATE_LIMIT_RETRY_AFTER_HEADER);
const RETRY_AFTER = line(RETRY_AFTER_HEADER);
const bucket = (prefix: string) => ({
  limit: line(`${prefix}-Limit`),
  remaining: line(`${prefix}-Remaining`),
  reset: line(`${prefix}-Reset`),
});
const RM = bucket(BUCKET_HEADER_PREFIXES.requestsMinute);
const RH = bucket(BUCKET_HEADER_PREFIXES.requestsHour);
const CM = bucket(BUCKET_HEADER_PREFIXES.complexityMinute);
const CH = bucket(BUCKET_HEADER_PREFIXES.complexityHour);

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
  const head = `${COMPLEXITY}${complexity}\r\n${MODE}${mode}\r\n${OUTCOME}${outcome}\r\n`;
  if (decision === null || outcome === "unavailable") return head;
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
    `${head}${RETRY}${retryAfter}\r\n${rejected ? `${RETRY_AFTER}${retryAfter}\r\n` : ""}` +
    `${RM.limit}${rm.limit}\r\n${RM.remaining}${rm.remaining}\r\n${RM.reset}${rm.resetUnixSeconds}\r\n` +
    `${RH.limit}${rh.limit}\r\n${RH.remaining}${rh.remaining}\r\n${RH.reset}${rh.resetUnixSeconds}\r\n` +
    `${CM.limit}${cm.limit}\r\n${CM.remaining}${cm.remaining}\r\n${CM.reset}${cm.resetUnixSeconds}\r\n` +
    `${CH.limit}${ch.limit}\r\n${CH.remaining}${ch.remaining}\r\n${CH.reset}${ch.resetUnixSeconds}\r\n`
  );
}
