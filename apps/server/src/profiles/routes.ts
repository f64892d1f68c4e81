// The handlers of the player-profile operations.
import { defineHandlers } from "../http/handler.ts";
import { getPlayerProfile, updatePlayerProfile } from "./profiles.ts";

export const profileHandlers = defineHandlers({
  getPlayerProfile: async ({ identity, params, app }) =>
    getPlayerProfile(app.store.db, identity, params.player_id),
  updatePlayerProfile: async ({ identity, params, body, app }) =>
    updatePlayerProfile(app.store.db, identity, params.player_id, body),
});
