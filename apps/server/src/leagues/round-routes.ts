import { defineHandlers } from "../http/handler.ts";
import { getPool, getRound, listPools, listRounds } from "./rounds-read.ts";
import { getSeedPolicies, replaceSeedPolicies } from "./seed-policies.ts";
import { triggerRound } from "./trigger-round.ts";

export const roundHandlers = defineHandlers({
  listRounds: async ({ identity, query, app }) =>
    listRounds(app.store.db, identity, query, app.config.queueShares),
  getRound: async ({ identity, params, app }) =>
    getRound(app.store.db, identity, params.round_id, app.config.queueShares),
  listPools: async ({ identity, query, app }) => listPools(app.store.db, identity, query.round_id),
  getPool: async ({ identity, params, app }) => getPool(app.store.db, identity, params.pool_id),
  triggerRound: async ({ identity, params, body, app }) =>
    triggerRound(
      app.store.db,
      app.events.bus,
      identity,
      params.league_id,
      body.division_id,
      app.config.queueShares,
    ),
  getSeedPolicies: async ({ identity, params, app }) =>
    getSeedPolicies(app.store.db, identity, params.league_id),
  replaceSeedPolicies: async ({ identity, params, body, app }) =>
    replaceSeedPolicies(app.store.db, identity, params.league_id, body.policy_version_ids),
});
