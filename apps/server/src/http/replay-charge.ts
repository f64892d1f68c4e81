// A live-events replay draws on the caller's shared budget as the feed read it stands in for
// would: the feed (`GET /v2/competition-events`) costs its complexity for a page of up to 500
// events, a replay page of n events n/500 of that. Before, a socket replayed up to 10,000
// events for the upgrade's one point, and a client that reconnected with `since_seq: 0` in a
// loop had the server read and write them without end (docs/api.md, "Live events").
import type { FastifyRequest } from "fastify";

import { contract } from "@gauntlet/core";

import { isAuthenticated } from "../auth/identity.ts";
import { identityOf } from "../auth/request-identity.ts";
import type { BudgetGate } from "./budget-gate.ts";
import { clientBudgetKeyOf } from "./client-address.ts";

/** The feed's largest page: its complexity is the price of this many events. */
const FEED_PAGE_EVENTS = 500;

/** Complexity points of a replay page of `events` (at least one). */
export function replayComplexity(events: number): number {
  return Math.max(
    1,
    Math.ceil((events * contract.listCompetitionEvents.complexity) / FEED_PAGE_EVENTS),
  );
}

/** For an upgrade's request: the charge of its connection's replay pages, on its caller's budget
 * (a token's owner's, else the client address's); null when a page fits, else why not. */
export function replayCharge(
  budgets: BudgetGate,
): (request: FastifyRequest) => (events: number) => Promise<string | null> {
  return (request) => {
    const identity = identityOf(request);
    const subject = isAuthenticated(identity)
      ? { budgetKey: identity.budget.key, kind: identity.budget.kind }
      : { budgetKey: clientBudgetKeyOf(request), kind: "anonymous" as const };
    return async (events) => {
      const { rejection } = await budgets.evaluate(subject, replayComplexity(events));
      if (!rejection) return null;
      const seconds = retryAfterOf(rejection.body);
      return `the shared budget is spent${seconds === undefined ? "" : `; a page fits again in ${seconds} s`}.`;
    };
  };
}

function retryAfterOf(body: unknown): number | undefined {
  const detail = (body as { detail?: { retry_after_seconds?: unknown } } | null)?.detail;
  return typeof detail?.retry_after_seconds === "number" ? detail.retry_after_seconds : undefined;
}
