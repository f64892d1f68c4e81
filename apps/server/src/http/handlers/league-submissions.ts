import { listMemberships, retireMembership, setChampion } from "../../league-play/memberships.ts";
import { createSubmission, listSubmissions } from "../../league-play/submissions.ts";
import { defineHandlers } from "../handler.ts";

export const leagueSubmissionHandlers = defineHandlers({
  createLeagueSubmission: async ({ identity, body, app }) => createSubmission(app.store.db, app.leaguePlay.bus, identity, body),
  listLeagueSubmissions: async ({ identity, query, app }) => listSubmissions(app.store.db, identity, query),
  listLeaguePolicyMemberships: async ({ identity, query, app }) => listMemberships(app.store.db, identity, query),
  setMembershipChampion: async ({ identity, params, app }) => setChampion(app.store.db, app.leaguePlay.bus, identity, params.membership_id),
  retireMembership: async ({ identity, params, body, app }) => retireMembership(app.store.db, app.leaguePlay.bus, identity, params.membership_id, body?.reason),
});
