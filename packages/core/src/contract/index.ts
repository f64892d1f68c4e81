// The contract: one table of every operation the service serves.
import type { OperationDef } from "./operation.ts";
import { gameOperations } from "./operations/games.ts";
import { identityOperations } from "./operations/identity.ts";
import { leagueOperations } from "./operations/leagues.ts";
import { serviceOperations } from "./operations/service.ts";

export const contract = {
  ...serviceOperations,
  ...identityOperations,
  ...gameOperations,
  ...leagueOperations,
} as const satisfies Record<string, OperationDef>;

export type Contract = typeof contract;
export type OperationId = keyof Contract;

export const operations: readonly OperationDef[] = Object.values(contract);
