import { actsAsAdmin } from "../access/admin.ts";
import { defineHandlers } from "../http/handler.ts";
import { forbidden } from "../shared/errors.ts";
import { createGame, createMod, getGame, getMod, listGames, listMods } from "./games.ts";

export const gameHandlers = defineHandlers({
  listGames: async ({ app }) => listGames(app.store.db),
  getGame: async ({ params, app }) => getGame(app.store.db, params.game_id),
  createGame: async ({ identity, body, app }) => {
    if (!actsAsAdmin(identity))
      throw forbidden("Only admins register games by hand; uploading a coworld creates its game.");
    return createGame(app.store.db, {
      ownerUserId: identity.userId,
      name: body.name,
      description: body.description,
      notes: body.notes,
      coworldName: body.coworld_name,
    });
  },
  listMods: async ({ query, app }) => listMods(app.store.db, query.game_id),
  getMod: async ({ params, app }) => getMod(app.store.db, params.mod_id),
  createMod: async ({ identity, body, app }) => createMod(app.store.db, identity, body),
});
