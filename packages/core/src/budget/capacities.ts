// The capacities of the four shared-budget buckets and their defaults.
import { z } from "zod";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

// Bounded so that a bucket's tolerance (capacity × µs per credit) stays an exact integer.
const Capacity = z.number().int().min(1).max(1_000_000_000);

export const BudgetCapacities = z
  .strictObject({
    requestsPerMinute: Capacity,
    requestsPerHour: Capacity,
    complexityPerMinute: Capacity,
    complexityPerHour: Capacity,
  })
  .meta({ description: "Credits of the four buckets of one identity." });

/** Some of the four capacities, to lay over a default (operator overrides). */
export const BudgetCapacitiesPatch = BudgetCapacities.partial();

export type BudgetCapacities = z.infer<typeof BudgetCapacities>;
export type BudgetCapacitiesPatch = z.infer<typeof BudgetCapacitiesPatch>;

/** Users and the players they own: 10 default-cost requests per second sustained. */
export const USER_CAPACITIES: Readonly<BudgetCapacities> = Object.freeze({
  requestsPerMinute: 2_400,
  requestsPerHour: 36_000,
  complexityPerMinute: 24_000,
  complexityPerHour: 360_000,
});

/** Machine (service) identities: 80 default-cost requests per second sustained. */
export const SERVICE_CAPACITIES: Readonly<BudgetCapacities> = Object.freeze({
  requestsPerMinute: 9_600,
  requestsPerHour: 288_000,
  complexityPerMinute: 96_000,
  complexityPerHour: 2_880_000,
});

/**
 * Anonymous callers, one budget per client address (an IPv6 client per /64): what a person or
 * the web view at `/` spends, several times over, but a flood of reads runs dry within seconds.
 */
export const ANONYMOUS_CAPACITIES: Readonly<BudgetCapacities> = Object.freeze({
  requestsPerMinute: 1_200,
  requestsPerHour: 18_000,
  complexityPerMinute: 6_000,
  complexityPerHour: 180_000,
});
