// The handlers of the tournament operations.
import { defineHandlers } from "../http/handler.ts";
import { advanceTournament, cancelTournament, startTournament } from "./actions.ts";
import {
  createTournament,
  getTournament,
  listTournaments,
  lockTournament,
  updateTournament,
} from "./tournaments.ts";

export const tournamentHandlers = defineHandlers({
  createTournament: async ({ identity, params, body, app }) =>
    createTournament(app.store.db, identity, params.league_id, body),
  listTournaments: async ({ identity, params, app }) =>
    listTournaments(app.store.db, identity, params.league_id),
  getTournament: async ({ identity, params, app }) =>
    getTournament(app.store.db, identity, params.tournament_id),
  updateTournament: async ({ identity, params, body, app }) =>
    updateTournament(app.store.db, identity, params.tournament_id, body),
  lockTournament: async ({ identity, params, app }) =>
    lockTournament(app.store.db, identity, params.tournament_id),
  startTournament: async ({ identity, params, app }) =>
    startTournament(app.store.db, app.events.bus, identity, params.tournament_id),
  advanceTournament: async ({ identity, params, app }) =>
    advanceTournament(app.store.db, app.events.bus, identity, params.tournament_id),
  cancelTournament: async ({ identity, params, app }) =>
    cancelTournament(app.store.db, app.events.bus, identity, params.tournament_id),
});
