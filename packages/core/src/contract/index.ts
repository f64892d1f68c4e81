// The contract: one table of every operation the service serves.
import type { OperationDef } from "./operation.ts";
import { competitionEventOperations } from "./operations/competition-events.ts";
import { coworldOperations } from "./operations/coworlds.ts";
import { bulkUploadOperations } from "./operations/bulk-upload.ts";
import { episodeOperations } from "./operations/episodes.ts";
import { experienceRequestOperations } from "./operations/experience-requests.ts";
import { gameOperations } from "./operations/games.ts";
import { identityOperations } from "./operations/identity.ts";
import { leagueSubmissionOperations } from "./operations/league-submissions.ts";
import { leagueOperations } from "./operations/leagues.ts";
import { lobbyOperations } from "./operations/lobbies.ts";
import { playSessionOperations } from "./operations/play-sessions.ts";
import { playModuleOperations } from "./operations/play-modules.ts";
import { policyOperations } from "./operations/policies.ts";
import { roundOperations } from "./operations/rounds.ts";
import { runnerOperations } from "./operations/runners.ts";
import { serviceOperations } from "./operations/service.ts";
import { standingsOperations } from "./operations/standings.ts";

export const contract = {
  ...serviceOperations,
  ...identityOperations,
  ...gameOperations,
  ...leagueOperations,
  ...policyOperations,
  ...coworldOperations,
  ...episodeOperations,
  ...runnerOperations,
  ...leagueSubmissionOperations,
  ...roundOperations,
  ...standingsOperations,
  ...competitionEventOperations,
  ...experienceRequestOperations,
  ...bulkUploadOperations,
  ...playModuleOperations,
  ...lobbyOperations,
  ...playSessionOperations,
} as const satisfies Record<string, OperationDef>;

export type Contract = typeof contract;
export type OperationId = keyof Contract;

export const operations: readonly OperationDef[] = Object.values(contract);
