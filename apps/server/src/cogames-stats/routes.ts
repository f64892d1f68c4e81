// The handlers of the cogames client's policy upload, policy browsing, episodes and assay runs.
import { defineHandlers } from "../http/handler.ts";
import { absoluteTo } from "../http/public-address.ts";
import { signedPutHandler, withAbsoluteUploadUrl } from "../http/upload-handlers.ts";
import {
  createAssayRun,
  finalizeAssayRun,
  getAssayResults,
  getAssayRun,
  listAssayRuns,
} from "./assay-runs.ts";
import {
  getCogamesEpisode,
  listCogamesEpisodes,
  queryEpisodes,
  type ServedEpisode,
} from "./episodes-view.ts";
import { browsePolicies } from "./policies-browse.ts";
import {
  checkPolicySubmitAddress,
  completePolicySubmit,
  putPolicySubmitFile,
  startPolicySubmit,
} from "./policy-submit.ts";

/** The episode as cogames reads it: `replay_url` absolute (cogames expects it so). */
const answered = <T extends { replay_url: string | null }>(
  base: string,
  { episode, replayPath }: ServedEpisode<T>,
): T => (replayPath === null ? episode : { ...episode, replay_url: absoluteTo(base, replayPath) });

export const cogamesStatsHandlers = defineHandlers({
  startPolicySubmit: async ({ identity, app, request }) =>
    withAbsoluteUploadUrl(
      app.baseUrl(request),
      await startPolicySubmit(app.store.db, app.blobs, identity),
    ),
  putPolicySubmitFile: signedPutHandler(putPolicySubmitFile, checkPolicySubmitAddress),
  completePolicySubmit: async ({ identity, body, app }) =>
    completePolicySubmit(app.store.db, app.blobs, app.secrets, identity, body),
  browsePolicies: async ({ identity, query, app }) => browsePolicies(app.store.db, identity, query),
  listCogamesEpisodes: async ({ identity, query, app, request }) => {
    const base = app.baseUrl(request);
    const served = await listCogamesEpisodes(app.store.db, identity, query);
    return served.map((s) => answered(base, s));
  },
  getCogamesEpisode: async ({ identity, params, app, request }) =>
    answered(
      app.baseUrl(request),
      await getCogamesEpisode(app.store.db, identity, params.episode_id),
    ),
  queryEpisodes: async ({ identity, body, app, request }) => {
    const base = app.baseUrl(request);
    const { episodes } = await queryEpisodes(app.store.db, identity, body);
    return { episodes: episodes.map((s) => answered(base, s)) };
  },
  createAssayRun: async ({ identity, body, app }) =>
    createAssayRun(app.store.db, app.events.bus, identity, body),
  listAssayRuns: async ({ identity, query, app }) =>
    listAssayRuns(app.store.db, identity, query.policy_version_id),
  getAssayRun: async ({ identity, params, app }) =>
    getAssayRun(app.store.db, identity, params.run_id),
  getAssayResults: async ({ identity, params, app }) =>
    getAssayResults(app.store.db, identity, params.run_id),
  finalizeAssayRun: async ({ identity, params, app }) =>
    finalizeAssayRun(app.store.db, identity, params.run_id),
});
