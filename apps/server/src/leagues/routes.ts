import { actsAsUser } from "../auth/identity.ts";
import { defineHandlers } from "../http/handler.ts";
import { parseJson } from "../shared/clock.ts";
import { forbidden } from "../shared/errors.ts";
import { divisionLadder, getDivision, listDivisions, replaceDivisions } from "./divisions.ts";
import {
  createLeague,
  getGameOfWeek,
  getVisibleLeagueRow,
  leagueView,
  listLeagues,
  locksOf,
  replaceSettings,
  setRoundsPaused,
  updateLeague,
  updateLocks,
} from "./leagues.ts";

export const leagueHandlers = defineHandlers({
  listLeagues: async ({ identity, query, app }) =>
    listLeagues(
      app.store.db,
      identity,
      { gameId: query.game_id, mine: query.mine },
      { limit: query.limit, offset: query.offset },
    ),
  createLeague: async ({ identity, body, app }) => {
    if (!actsAsUser(identity)) throw forbidden("Leagues are created with a user token.");
    return createLeague(app.store.db, identity, body);
  },
  getGameOfWeek: async ({ identity, app }) => getGameOfWeek(app.store.db, identity),
  getLeague: async ({ identity, params, app }) =>
    leagueView(app.store.db, await getVisibleLeagueRow(app.store.db, identity, params.league_id)),
  updateLeague: async ({ identity, params, body, app }) =>
    updateLeague(app.store.db, identity, params.league_id, body),
  getLeagueSettings: async ({ identity, params, app }) =>
    parseJson<Record<string, unknown>>(
      (await getVisibleLeagueRow(app.store.db, identity, params.league_id)).settings,
    ),
  replaceLeagueSettings: async ({ identity, params, body, app }) =>
    replaceSettings(app.store.db, identity, params.league_id, body),
  getLeagueLocks: async ({ identity, params, app }) =>
    locksOf(await getVisibleLeagueRow(app.store.db, identity, params.league_id)),
  updateLeagueLocks: async ({ identity, params, body, app }) =>
    updateLocks(app.store.db, identity, params.league_id, body),
  setRoundsPaused: async ({ identity, params, body, app }) =>
    setRoundsPaused(app.store.db, identity, params.league_id, body.paused),
  getDivisionLadder: async ({ identity, params, app }) =>
    divisionLadder(app.store.db, identity, params.league_id),
  replaceDivisions: async ({ identity, params, body, app }) =>
    replaceDivisions(app.store.db, identity, params.league_id, body),
  listDivisions: async ({ identity, query, app }) =>
    listDivisions(app.store.db, identity, {
      leagueId: query.league_id,
      includeArchived: query.include_archived,
    }),
  getDivision: async ({ identity, params, app }) =>
    getDivision(app.store.db, identity, params.division_id),
});
