import { defineHandlers } from "../http/handler.ts";
import {
  completeImage,
  completePolicyBundle,
  createPolicyVersion,
  createSecretEnv,
  getImage,
  getPolicyVersion,
  listImages,
  listPolicyVersions,
  registerImage,
  uploadPolicyBundle,
} from "./policies.ts";
import { updatePolicyVersion } from "./version-settings.ts";

export const policyHandlers = defineHandlers({
  uploadContainerImage: async ({ identity, body, app }) => ({
    image: await registerImage(app.store.db, identity, body),
    pre_signed_info: null,
  }),
  completeContainerImage: async ({ identity, body, app }) =>
    completeImage(app.store.db, identity, body.id),
  listContainerImages: async ({ identity, app }) => listImages(app.store.db, identity),
  getContainerImage: async ({ identity, params, app }) =>
    getImage(app.store.db, identity, params.image_id),
  uploadPolicyBundle: async ({ identity, body, app }) =>
    uploadPolicyBundle(app.store.db, app.blobs, identity, body),
  completePolicyBundle: async ({ identity, body, app }) =>
    completePolicyBundle(app.store.db, identity, body.id),
  createPolicySecretEnv: async ({ identity, body, app }) =>
    createSecretEnv(app.store.db, app.secrets, identity, body.env),
  createPolicyVersion: async ({ identity, body, app }) =>
    createPolicyVersion(app.store.db, app.blobs, identity, body),
  listPolicyVersions: async ({ identity, query, app }) =>
    (
      await listPolicyVersions(app.store.db, identity, {
        name: query.name,
        mine: query.mine,
        playerId: query.player_id,
        limit: query.limit,
      })
    ).entries,
  getPolicyVersion: async ({ identity, params, app }) =>
    getPolicyVersion(app.store.db, identity, params.policy_version_id),
  getStatsPolicyVersion: async ({ identity, params, app }) =>
    getPolicyVersion(app.store.db, identity, params.policy_version_id),
  updatePolicyVersion: async ({ identity, params, body, app }) =>
    updatePolicyVersion(app.store.db, identity, params.policy_version_id, body),
  searchPolicyVersions: async ({ identity, query, app }) => {
    const page = await listPolicyVersions(app.store.db, identity, {
      nameExact: query.name_exact,
      version: query.version,
      mine: query.mine,
      limit: query.limit,
      offset: query.offset,
    });
    return { entries: page.entries, total_count: page.total };
  },
});
