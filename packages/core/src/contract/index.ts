// The contract: one table of every operation the service serves.
import type {
  OperationBody,
  OperationDef,
  OperationParams,
  OperationQuery,
  OperationResponse,
} from "./operation.ts";
import { adminOperations } from "./operations/admin.ts";
import { bulkUploadOperations } from "./operations/bulk-upload.ts";
import { campaignOperations } from "./operations/campaign.ts";
import { cogamesStatsOperations } from "./operations/cogames-stats.ts";
import { competitionEventOperations } from "./operations/competition-events.ts";
import { coworldLeagueSeedOperations } from "./operations/coworld-league-seeds.ts";
import { coworldOperations } from "./operations/coworlds.ts";
import { episodeOperations } from "./operations/episodes.ts";
import { experienceRequestOperations } from "./operations/experience-requests.ts";
import { forumOperations } from "./operations/forums.ts";
import { gameOperations } from "./operations/games.ts";
import { homePageOperations } from "./operations/home-page.ts";
import { hostedClientViewOperations } from "./operations/hosted-clients-2.ts";
import { hostedClientOperations } from "./operations/hosted-clients.ts";
import { hostedGameOperations } from "./operations/hosted-games.ts";
import { identityOperations } from "./operations/identity.ts";
import { leagueSubmissionOperations } from "./operations/league-submissions.ts";
import { leagueOperations } from "./operations/leagues.ts";
import { lobbyOperations } from "./operations/lobbies.ts";
import { playModuleOperations } from "./operations/play-modules.ts";
import { playSessionOperations } from "./operations/play-sessions.ts";
import { policyOperations } from "./operations/policies.ts";
import { profileOperations } from "./operations/profiles.ts";
import { reporterOperations } from "./operations/reporters.ts";
import { roundOperations } from "./operations/rounds.ts";
import { commissionerJobOperations, runnerOperations } from "./operations/runners.ts";
import { serviceOperations } from "./operations/service.ts";
import { standingsOperations } from "./operations/standings.ts";
import { tournamentViewOperations } from "./operations/tournament-view.ts";
import { tournamentOperations } from "./operations/tournaments.ts";
import { webSessionOperations } from "./operations/web-session.ts";
import { wikiOperations } from "./operations/wikis.ts";

export const contract = {
  ...serviceOperations,
  ...identityOperations,
  ...gameOperations,
  ...leagueOperations,
  ...policyOperations,
  ...coworldOperations,
  ...episodeOperations,
  ...runnerOperations,
  ...commissionerJobOperations,
  ...leagueSubmissionOperations,
  ...roundOperations,
  ...standingsOperations,
  ...competitionEventOperations,
  ...experienceRequestOperations,
  ...bulkUploadOperations,
  ...reporterOperations,
  ...forumOperations,
  ...wikiOperations,
  ...profileOperations,
  ...campaignOperations,
  ...playModuleOperations,
  ...lobbyOperations,
  ...playSessionOperations,
  ...hostedGameOperations,
  ...tournamentOperations,
  ...hostedClientOperations,
  ...tournamentViewOperations,
  ...cogamesStatsOperations,
  ...hostedClientViewOperations,
  ...homePageOperations,
  ...webSessionOperations,
  ...coworldLeagueSeedOperations,
  ...adminOperations,
} as const satisfies Record<string, OperationDef>;

export type Contract = typeof contract;
export type OperationId = keyof Contract;

export const operations: readonly OperationDef[] = Object.values(contract);

/** The validated body, query and path parameters of an operation, by its id: what a domain
 * function that serves it takes, so that no request shape is typed twice. */
export type BodyOf<Id extends OperationId> = OperationBody<Contract[Id]>;
export type QueryOf<Id extends OperationId> = OperationQuery<Contract[Id]>;
export type ParamsOf<Id extends OperationId> = OperationParams<Contract[Id]>;
/** What an operation answers, by its id. */
export type ResponseOf<Id extends OperationId> = OperationResponse<Contract[Id]>;
