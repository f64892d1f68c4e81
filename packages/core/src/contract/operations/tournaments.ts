// Tournaments (docs/api.md, "Tournaments in short"): a league's cups, their states and actions.
import { z } from "zod";

import { LeagueIdParams } from "../../models/league.ts";
import {
  CreateTournament,
  Tournament,
  TournamentIdParams,
  TournamentPatch,
} from "../../models/tournament.ts";
import { defineOperation } from "../operation.ts";

const CHANGES =
  "Only the league's commissioner or an admin (403 to others; 404 when the league is private to them).";

function action(id: string, verb: string, summary: string, description: string) {
  return defineOperation({
    id,
    method: "POST",
    path: `/v2/tournaments/{tournament_id}:${verb}`,
    tag: "Tournaments",
    summary,
    description: `${description} ${CHANGES}`,
    auth: "required",
    access: "owner",
    complexity: 20,
    params: TournamentIdParams,
    status: 200,
    response: Tournament,
  } as const);
}

export const tournamentOperations = {
  createTournament: defineOperation({
    id: "createTournament",
    method: "POST",
    path: "/v2/leagues/{league_id}/tournaments",
    tag: "Tournaments",
    summary: "Create a tournament in draft",
    description: `Entrants are \`policy_version_ids\` in seed order, or else the league's competing champions seeded by its standings. Formats: \`single_elimination\`; \`double_elimination\` (a winners bracket, a losers bracket that gives every entrant a second life, and one grand final between their champions with no bracket reset); \`round_robin\` (every pair once; the most matches won takes it, equal wins go to the higher seed). ${CHANGES}`,
    auth: "required",
    access: "owner",
    complexity: 20,
    params: LeagueIdParams,
    body: CreateTournament,
    status: 201,
    response: Tournament,
  }),
  listTournaments: defineOperation({
    id: "listTournaments",
    method: "GET",
    path: "/v2/leagues/{league_id}/tournaments",
    tag: "Tournaments",
    summary: "The league's tournaments, newest first",
    auth: "optional",
    access: "owner",
    complexity: 10,
    params: LeagueIdParams,
    status: 200,
    response: z.array(Tournament),
  }),
  getTournament: defineOperation({
    id: "getTournament",
    method: "GET",
    path: "/v2/tournaments/{tournament_id}",
    tag: "Tournaments",
    summary: "A tournament with its entrants, bracket and winner",
    auth: "optional",
    access: "owner",
    complexity: 5,
    params: TournamentIdParams,
    status: 200,
    response: Tournament,
  }),
  updateTournament: defineOperation({
    id: "updateTournament",
    method: "PATCH",
    path: "/v2/tournaments/{tournament_id}",
    tag: "Tournaments",
    summary: "Change a tournament while it is a draft (409 after)",
    description: CHANGES,
    auth: "required",
    access: "owner",
    complexity: 20,
    params: TournamentIdParams,
    body: TournamentPatch,
    status: 200,
    response: Tournament,
  }),
  lockTournament: action(
    "lockTournament",
    "lock",
    "Lock the entrants and draw the bracket",
    "`draft` → `locked`; byes go to the top seeds and are decided at once.",
  ),
  startTournament: action(
    "startTournament",
    "start",
    "Start playing: the first wave of matches goes to the runners",
    "`locked` → `running`; each wave of ready matches is one experience request, and the next wave starts when it ends.",
  ),
  advanceTournament: action(
    "advanceTournament",
    "advance",
    "Decide the matches of an ended wave and start the next one",
    "Only while `running`. Done automatically when a wave's experience request ends; this does it by hand (nothing changes while the wave is still playing).",
  ),
  cancelTournament: action(
    "cancelTournament",
    "cancel",
    "Cancel a tournament that has not ended",
    "`draft | locked | running` → `cancelled`; the wave playing is cancelled too.",
  ),
} as const;
