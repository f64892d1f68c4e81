// The limiter as the environment configures it:
//   GAUNTLET_RATE_LIMIT_MODE      enforced (default) | log-only | off
//   REDIS_URL                     budgets in Redis (shared by replicas); in memory when unset
//   GAUNTLET_USER_CAPACITIES      JSON, e.g. {"requestsPerMinute": 600}, over docs/architecture.md user row
//   GAUNTLET_MACHINE_CAPACITIES   JSON, the same over the service row
//   GAUNTLET_ANONYMOUS_CAPACITIES JSON, the same over the anonymous row (per client address)
//   GAUNTLET_BUDGET_OVERRIDES     JSON, {"<budget key>": {…capacities}} for single identities
import { z } from "zod";

import {
  ANONYMOUS_CAPACITIES,
  BudgetCapacitiesPatch,
  SERVICE_CAPACITIES,
  USER_CAPACITIES,
  type BudgetCapacities,
} from "@gauntlet/core";

import {
  createLimiter,
  describeCapacities,
  type Limiter,
  type LimiterDescription,
  type LimiterMode,
} from "./limiter.ts";
import { MemoryBudgetStore } from "./memory-store.ts";
import { RedisBudgetStore } from "./redis-store.ts";
import type { BudgetStore } from "./store.ts";

const LimiterModeSetting = z.enum(["enforced", "log-only", "off"]);
const Overrides = z.record(z.string().min(1), BudgetCapacitiesPatch);

export type LimiterEnv = Readonly<Record<string, string | undefined>>;

export interface LimiterFromEnvOptions {
  /** Store failures (the request proceeds regardless). */
  onStoreError?: (error: Error) => void;
}

function parseJsonSetting<T>(env: LimiterEnv, name: string, schema: z.ZodType<T>): T | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not valid JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${name} is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function limiterModeFromEnv(env: LimiterEnv): LimiterMode {
  const text = env.GAUNTLET_RATE_LIMIT_MODE?.trim();
  if (!text) return "enforced";
  const parsed = LimiterModeSetting.safeParse(text);
  if (!parsed.success)
    throw new Error(
      `GAUNTLET_RATE_LIMIT_MODE must be enforced, log-only or off, not ${JSON.stringify(text)}`,
    );
  return parsed.data;
}

/** The default capacities of each kind, as the environment adjusts them. */
export function capacitiesFromEnv(env: LimiterEnv): {
  user: BudgetCapacities;
  machine: BudgetCapacities;
  anonymous: BudgetCapacities;
} {
  return {
    user: {
      ...USER_CAPACITIES,
      ...parseJsonSetting(env, "GAUNTLET_USER_CAPACITIES", BudgetCapacitiesPatch),
    },
    machine: {
      ...SERVICE_CAPACITIES,
      ...parseJsonSetting(env, "GAUNTLET_MACHINE_CAPACITIES", BudgetCapacitiesPatch),
    },
    anonymous: {
      ...ANONYMOUS_CAPACITIES,
      ...parseJsonSetting(env, "GAUNTLET_ANONYMOUS_CAPACITIES", BudgetCapacitiesPatch),
    },
  };
}

/** What the budgets page shows; the same as `limiter.describe()` of a limiter from this env. */
export function budgetsInfoFromEnv(
  env: LimiterEnv,
  mode: LimiterMode = limiterModeFromEnv(env),
): LimiterDescription {
  return describeCapacities(mode, capacitiesFromEnv(env));
}

export function createLimiterFromEnv(
  env: LimiterEnv,
  documentationUrl: string,
  options: LimiterFromEnvOptions = {},
): Limiter {
  const mode = limiterModeFromEnv(env);
  const capacities = capacitiesFromEnv(env);
  const overrides = parseJsonSetting(env, "GAUNTLET_BUDGET_OVERRIDES", Overrides) ?? {};
  const redisUrl = env.REDIS_URL?.trim();
  const store: BudgetStore =
    mode === "off"
      ? new MemoryBudgetStore()
      : redisUrl
        ? new RedisBudgetStore({ url: redisUrl, onError: options.onStoreError })
        : new MemoryBudgetStore();
  return createLimiter({
    mode,
    store,
    capacities,
    overrides,
    documentationUrl,
    onStoreError: options.onStoreError,
  });
}
