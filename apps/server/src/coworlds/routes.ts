import { defineHandlers } from "../http/handler.ts";
import { storeUpload } from "../policies/policies.ts";
import { certify } from "./certification.ts";
import {
  deleteSecret,
  getCertification,
  getCoworld,
  listCoworlds,
  listSecrets,
  putSecret,
  uploadCoworld,
} from "./coworlds.ts";
import { patchCommissioner } from "./patch-commissioner.ts";

export const coworldHandlers = defineHandlers({
  uploadCoworldBundle: async ({ identity, body, app }) => {
    const upload = await storeUpload(app.store.db, app.blobs, identity, "coworld-bundle", body);
    return {
      upload_id: upload.id,
      sha256: upload.sha256,
      size_bytes: upload.size_bytes,
      files: upload.files,
    };
  },
  uploadCoworld: async ({ identity, body, app }) =>
    uploadCoworld(app.store.db, identity, {
      manifest: body.manifest,
      bundleUploadId: body.bundle_upload_id,
    }),
  listCoworlds: async ({ query, app }) =>
    listCoworlds(app.store.db, { name: query.name, canonicalOnly: query.canonical_only }),
  patchCoworldCommissioner: async ({ identity, body, app }) =>
    patchCommissioner(app.store.db, identity, body),
  getCoworld: async ({ params, app }) => getCoworld(app.store.db, params.coworld_id),
  getCertification: async ({ params, app }) => getCertification(app.store.db, params.coworld_id),
  certifyCoworld: async ({ identity, params, app }) =>
    certify(app.store.db, identity, params.coworld_id),
  putCoworldSecret: async ({ identity, params, body, app }) =>
    putSecret(app.store.db, app.secrets, identity, params.coworld_name, params.secret_name, body),
  listCoworldSecrets: async ({ identity, params, app }) =>
    listSecrets(app.store.db, identity, params.coworld_name),
  deleteCoworldSecret: async ({ identity, params, app }) =>
    deleteSecret(app.store.db, identity, params.coworld_name, params.secret_name),
});
