// Every command group, in the order `gauntlet --help` lists them. A new group of the
// service is one file in this folder exporting a CommandGroup, added to this list.
import { admin } from "./admin.ts";
import { auth } from "./auth/index.ts";
import { campaign } from "./campaign.ts";
import { completion } from "./completion.ts";
import { coworld } from "./coworld/index.ts";
import { division } from "./division.ts";
import { episode } from "./episode/index.ts";
import { evaluation } from "./eval/index.ts";
import { events } from "./events.ts";
import type { CommandGroup } from "./group.ts";
import { hosted } from "./hosted/index.ts";
import { leaderboard } from "./leaderboard.ts";
import { league } from "./league/index.ts";
import { lobby } from "./lobby/index.ts";
import { play } from "./play/index.ts";
import { policy } from "./policy/index.ts";
import { post } from "./post/index.ts";
import { reporter } from "./reporter/index.ts";
import { round } from "./round.ts";
import { submit } from "./submit/index.ts";
import { tournament } from "./tournament/index.ts";
import { watch } from "./watch.ts";
import { wiki } from "./wiki/index.ts";

export const commandGroups: readonly CommandGroup[] = [
  auth,
  league,
  division,
  campaign,
  tournament,
  leaderboard,
  round,
  events,
  coworld,
  policy,
  submit,
  episode,
  evaluation,
  lobby,
  play,
  hosted,
  reporter,
  post,
  wiki,
  watch,
  admin,
  completion,
];
