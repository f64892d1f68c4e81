import type { Migration, MigrationProvider } from "kysely/migration";

import { foundation } from "./001-foundation.ts";
import { episodes } from "./002-episodes.ts";
import { leaguePlay } from "./003-league-play.ts";
import { evaluations } from "./004-evaluations.ts";
import { reporters } from "./005-reporters.ts";
import { forumsWikis } from "./006-forums-wikis.ts";
import { tournamentsCampaign } from "./007-tournaments-campaign.ts";
import { lobbiesPlay } from "./008-lobbies-play.ts";
import { tournaments } from "./009-tournaments.ts";
import { doubleElimination } from "./010-double-elimination.ts";
import { hostedGames } from "./011-hosted-games.ts";
import { leaseTokens } from "./012-lease-tokens.ts";
import { episodeVoids } from "./013-episode-voids.ts";
import { bundleUploads } from "./014-bundle-uploads.ts";
import { cogamesStats } from "./015-cogames-stats.ts";
import { jobIsolation } from "./016-job-isolation.ts";
import { forumWikiKeys } from "./017-forum-wiki-keys.ts";
import { retention } from "./018-retention.ts";
import { livePlay } from "./019-live-play.ts";
import { coworldUploadClient } from "./020-coworld-upload-client.ts";
import { fairQueue } from "./021-fair-queue.ts";
import { episodeCpu } from "./022-episode-cpu.ts";
import { openToScrimmage } from "./023-open-to-scrimmage.ts";
import { shareWindow } from "./024-share-window.ts";
import { commissionerRounds } from "./025-commissioner-rounds.ts";
import { adminAudit } from "./027-admin-audit.ts";
import { privateEpisodeInputs } from "./028-private-episode-inputs.ts";
import { playerState } from "./029-player-state.ts";
import { commissionerJobs } from "./030-commissioner-jobs.ts";

// Migrations are code, not files read at run time, so they ship inside the package.
const migrations: Record<string, Migration> = {
  "001-foundation": foundation,
  "002-episodes": episodes,
  "003-league-play": leaguePlay,
  "004-evaluations": evaluations,
  "005-reporters": reporters,
  "006-forums-wikis": forumsWikis,
  "007-tournaments-campaign": tournamentsCampaign,
  "008-lobbies-play": lobbiesPlay,
  "009-tournaments": tournaments,
  "010-double-elimination": doubleElimination,
  "011-hosted-games": hostedGames,
  "012-lease-tokens": leaseTokens,
  "013-episode-voids": episodeVoids,
  "014-bundle-uploads": bundleUploads,
  "015-cogames-stats": cogamesStats,
  "016-job-isolation": jobIsolation,
  "017-forum-wiki-keys": forumWikiKeys,
  "018-retention": retention,
  "019-live-play": livePlay,
  "020-coworld-upload-client": coworldUploadClient,
  "021-fair-queue": fairQueue,
  "022-episode-cpu": episodeCpu,
  "023-open-to-scrimmage": openToScrimmage,
  "024-share-window": shareWindow,
  "025-commissioner-rounds": commissionerRounds,
  "027-admin-audit": adminAudit,
  "028-private-episode-inputs": privateEpisodeInputs,
  "029-player-state": playerState,
  "030-commissioner-jobs": commissionerJobs,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
