import { defineHandlers } from "../http/handler.ts";
import { listMemberships, retireMembership, setChampion } from "./memberships.ts";
import { membershipPortfolio } from "./portfolio.ts";
import { createSubmission, listSubmissions } from "./submissions.ts";

export const leagueSubmissionHandlers = defineHandlers({
  createLeagueSubmission: async ({ identity, body, app, reply }) =>
    createSubmission(app.store.db, app.events.bus, identity, body, (seconds) => {
      reply.header("retry-after", String(seconds));
    }),
  listLeagueSubmissions: async ({ identity, query, app }) =>
    listSubmissions(app.store.db, identity, query),
  listLeaguePolicyMemberships: async ({ identity, query, app }) =>
    listMemberships(app.store.db, identity, query),
  getMembershipPortfolio: async ({ identity, query, app }) =>
    membershipPortfolio(app.store.db, identity, query.limit),
  setMembershipChampion: async ({ identity, params, app }) =>
    setChampion(app.store.db, app.events.bus, identity, params.membership_id),
  retireMembership: async ({ identity, params, body, app }) =>
    retireMembership(app.store.db, app.events.bus, identity, params.membership_id, body.reason),
});
