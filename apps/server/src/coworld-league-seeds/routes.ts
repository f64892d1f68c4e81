import { defineHandlers } from "../http/handler.ts";
import { createSeed, listSeeds, updateSeed } from "./seeds.ts";

export const coworldLeagueSeedHandlers = defineHandlers({
  listCoworldLeagueSeeds: async ({ identity, app }) => listSeeds(app.store.db, identity),
  createCoworldLeagueSeed: async ({ identity, body, app }) =>
    createSeed(app.store.db, identity, body),
  updateCoworldLeagueSeed: async ({ identity, params, body, app }) =>
    updateSeed(app.store.db, identity, params.coworld_name, body),
});
