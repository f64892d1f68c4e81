// cogames' policy upload: an address to PUT a zip to, then completion, which repacks the zip's
// files as a Gauntlet policy bundle (tar.gz, checked like any bundle) and makes a version of the
// caller's policy from it. The zip is cogames' submission format (`policy_spec.json` and files).
import type { Kysely } from "kysely";

import type { PolicySubmitCompleted, PolicySubmitStarted } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import {
  newSignedUpload,
  signedUpload,
  uploadAddress,
  type SignedAddress,
  type SignedPut,
} from "../blobs/signed-upload.ts";
import { zipToTarGz } from "../blobs/tarball.ts";
import { createPolicyVersion, createSecretEnv, storeUpload } from "../policies/policies.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, invalidInput } from "../shared/errors.ts";
import type { Database, PolicySubmitUploadsTable } from "../store/schema.ts";

export const POLICY_SUBMIT_SECONDS = 3600;
const policyZipKey = (upload: { id: string; user_id: string }) =>
  `policy-uploads/${upload.user_id}/${upload.id}.zip`;

export async function startPolicySubmit(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  now = new Date(),
): Promise<PolicySubmitStarted> {
  const upload = newSignedUpload(identity.userId, policyZipKey, POLICY_SUBMIT_SECONDS, now);
  const row: PolicySubmitUploadsTable = {
    ...upload.columns,
    s3_key: upload.s3Key,
    sha256: null,
    size_bytes: null,
    policy_version_id: null,
    created_at: nowIso(),
  };
  await db.insertInto("policy_submit_uploads").values(row).execute();
  const upload_url = await uploadAddress(blobs, upload, "/stats/policies/submit/files");
  return { upload_url, s3_key: row.s3_key, upload_id: row.id };
}

/** The signed address of a PUT judged before its body is read: its upload, signature, expiry
 * and state (http/upload-handlers.ts). */
export async function checkPolicySubmitAddress(
  db: Kysely<Database>,
  address: SignedAddress,
  now = new Date(),
) {
  const row = signedUpload(
    await db
      .selectFrom("policy_submit_uploads")
      .selectAll()
      .where("id", "=", address.uploadId)
      .executeTakeFirst(),
    address,
    now,
  );
  if (row.policy_version_id)
    throw conflict(`policy upload ${address.uploadId} is already completed`);
  return row;
}

export async function putPolicySubmitFile(
  db: Kysely<Database>,
  blobs: BlobStore,
  put: SignedPut,
  now = new Date(),
) {
  const { uploadId } = put;
  // Judged again with the bytes in hand: the upload may have changed meanwhile.
  await checkPolicySubmitAddress(db, put, now);
  const blob = await blobs.put(put.bytes);
  await db
    .updateTable("policy_submit_uploads")
    .set({ sha256: blob.sha256, size_bytes: blob.size })
    .where("id", "=", uploadId)
    .where("policy_version_id", "is", null)
    .execute();
  return { upload_id: uploadId, size_bytes: blob.size };
}

export async function completePolicySubmit(
  db: Kysely<Database>,
  blobs: BlobStore,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  body: { upload_id: string; name: string; policy_secret_env?: Record<string, string> | undefined },
): Promise<PolicySubmitCompleted> {
  const row = await db
    .selectFrom("policy_submit_uploads")
    .selectAll()
    .where("id", "=", body.upload_id)
    .where("user_id", "=", identity.userId)
    .executeTakeFirst();
  if (!row)
    throw invalidInput(
      ["body", "upload_id"],
      `policy upload ${body.upload_id} does not exist`,
      "value_error",
      body.upload_id,
    );
  if (row.policy_version_id) return answer(db, row.policy_version_id);
  let sha256 = row.sha256;
  if (!sha256 && blobs.readUpload) {
    const put = await blobs.readUpload(row.s3_key);
    if (put) sha256 = (await blobs.put(put)).sha256;
  }
  const zip = sha256 ? await blobs.get(sha256) : null;
  if (!zip) throw conflict(`nothing was PUT to policy upload ${body.upload_id}'s address`);
  // Unpacked and repacked off the event loop, within the archive budgets (blobs/zip-repack.ts).
  const repacked = await zipToTarGz(zip);
  if (!repacked.ok)
    throw invalidInput(
      ["body", "upload_id"],
      `the policy zip cannot be a bundle: ${repacked.error}`,
      "bundle_invalid",
      body.upload_id,
    );
  const bundle = await storeUpload(
    db,
    blobs,
    identity,
    "policy-bundle",
    Buffer.from(repacked.tarGz),
  );
  await db.updateTable("uploads").set({ status: "complete" }).where("id", "=", bundle.id).execute();
  const env =
    body.policy_secret_env && Object.keys(body.policy_secret_env).length > 0
      ? await createSecretEnv(db, box, identity, body.policy_secret_env)
      : null;
  const version = await createPolicyVersion(db, blobs, identity, {
    name: body.name,
    policy_bundle_id: bundle.id,
    runless: true,
    policy_secret_env_id: env?.id,
    tags: { bundle_format: "cogames" },
  });
  // Two completions at once: the first to record its version wins, the other answers it.
  await db
    .updateTable("policy_submit_uploads")
    .set({ policy_version_id: version.id, sha256 })
    .where("id", "=", row.id)
    .where("policy_version_id", "is", null)
    .execute();
  const recorded = await db
    .selectFrom("policy_submit_uploads")
    .select("policy_version_id")
    .where("id", "=", row.id)
    .executeTakeFirstOrThrow();
  return answer(db, recorded.policy_version_id ?? version.id);
}

async function answer(db: Kysely<Database>, versionId: string): Promise<PolicySubmitCompleted> {
  const v = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "pv.version", "pv.bundle_upload_id", "p.name"])
    .where("pv.id", "=", versionId)
    .executeTakeFirstOrThrow();
  return {
    id: v.id,
    name: v.name,
    version: v.version,
    policy_bundle_id: v.bundle_upload_id ?? "",
    pools: null,
    submit_error: null,
  };
}
