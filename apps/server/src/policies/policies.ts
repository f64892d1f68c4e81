// Container images, policy bundles, secret environments and policy versions.
import { randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import { newId, type ContainerImage, type PolicyBundle, type PolicyVersion } from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import { canInspectVersion, visibleVersionIds } from "../access/versions.ts";
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { inspectTarGz } from "../blobs/tarball.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, invalidInput, notFound } from "../shared/errors.ts";
import type { ContainerImagesTable, Database, UploadsTable } from "../store/schema.ts";

/** Which of its owner's images of that name this is, counting from 1 (oldest first). */
async function imageVersion(db: Kysely<Database>, row: ContainerImagesTable): Promise<number> {
  const earlier = await db
    .selectFrom("container_images")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner_user_id", "=", row.owner_user_id)
    .where("name", "=", row.name)
    .where((eb) =>
      eb.or([
        eb("created_at", "<", row.created_at),
        eb.and([eb("created_at", "=", row.created_at), eb("id", "<", row.id)]),
      ]),
    )
    .executeTakeFirst();
  return Number(earlier?.n ?? 0) + 1;
}

function toImage(row: ContainerImagesTable, version: number): ContainerImage {
  return {
    id: row.id,
    name: row.name,
    version,
    client_hash: row.client_hash,
    owner_user_id: row.owner_user_id,
    status: row.status,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

export async function registerImage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: { name: string; client_hash: string },
): Promise<ContainerImage> {
  const row: ContainerImagesTable = {
    id: newId("image"),
    owner_user_id: identity.userId,
    name: input.name,
    client_hash: input.client_hash,
    status: "pending",
    created_at: nowIso(),
    completed_at: null,
  };
  await db.insertInto("container_images").values(row).execute();
  return toImage(row, await imageVersion(db, row));
}

export async function ownedImage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  loc: (string | number)[] | null,
): Promise<ContainerImagesTable> {
  const row = await db
    .selectFrom("container_images")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || !ownsOrAdmin(identity, row.owner_user_id)) {
    if (loc) throw invalidInput(loc, `container image ${id} does not exist`, "value_error", id);
    throw notFound("container image", id);
  }
  return row;
}

export async function completeImage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<ContainerImage> {
  const row = await ownedImage(db, identity, id, ["body", "id"]);
  if (row.status === "complete") return toImage(row, await imageVersion(db, row));
  const completed_at = nowIso();
  await db
    .updateTable("container_images")
    .set({ status: "complete", completed_at })
    .where("id", "=", id)
    .execute();
  return toImage({ ...row, status: "complete", completed_at }, await imageVersion(db, row));
}

export async function listImages(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
): Promise<ContainerImage[]> {
  const rows = await db
    .selectFrom("container_images")
    .selectAll()
    .where("owner_user_id", "=", identity.userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const version = (seen.get(row.name) ?? 0) + 1;
    seen.set(row.name, version);
    return toImage(row, version);
  });
}

export async function getImage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<ContainerImage> {
  const row = await ownedImage(db, identity, id, null);
  return toImage(row, await imageVersion(db, row));
}

function toBundle(row: UploadsTable): PolicyBundle {
  return {
    id: row.id,
    owner_user_id: row.owner_user_id,
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    status: row.status,
    created_at: row.created_at,
  };
}

/** Stores an uploaded tar.gz (a policy or coworld bundle) after checking that it is one. */
export async function storeUpload(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  kind: "policy-bundle" | "coworld-bundle",
  bytes: Uint8Array,
): Promise<UploadsTable & { files: number }> {
  const listing = await inspectTarGz(bytes);
  if (!listing.ok)
    throw invalidInput(["body"], `not a tar.gz bundle: ${listing.error}`, "bundle_invalid");
  const blob = await blobs.put(bytes);
  const row: UploadsTable = {
    id: randomUUID(),
    owner_user_id: identity.userId,
    kind,
    sha256: blob.sha256,
    size_bytes: blob.size,
    status: "uploaded",
    created_at: nowIso(),
  };
  await db.insertInto("uploads").values(row).execute();
  return { ...row, files: listing.files.length };
}

export async function uploadPolicyBundle(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  bytes: Uint8Array,
): Promise<PolicyBundle> {
  return toBundle(await storeUpload(db, blobs, identity, "policy-bundle", bytes));
}

async function ownedUpload(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  kind: UploadsTable["kind"],
  loc: (string | number)[],
): Promise<UploadsTable> {
  const row = await db
    .selectFrom("uploads")
    .selectAll()
    .where("id", "=", id)
    .where("kind", "=", kind)
    .executeTakeFirst();
  if (!row || !ownsOrAdmin(identity, row.owner_user_id))
    throw invalidInput(loc, `${kind} ${id} does not exist`, "value_error", id);
  return row;
}

export async function completePolicyBundle(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<PolicyBundle> {
  const row = await ownedUpload(db, identity, id, "policy-bundle", ["body", "id"]);
  await db.updateTable("uploads").set({ status: "complete" }).where("id", "=", id).execute();
  return toBundle({ ...row, status: "complete" });
}

export async function findUpload(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  kind: "policy-bundle" | "coworld-bundle",
  loc: (string | number)[],
): Promise<UploadsTable> {
  return ownedUpload(db, identity, id, kind, loc);
}

export async function createSecretEnv(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  env: Record<string, string>,
) {
  const row = {
    id: randomUUID(),
    owner_user_id: identity.userId,
    ciphertext: box.seal(JSON.stringify(env)),
    variable_names: JSON.stringify(Object.keys(env).sort()),
    created_at: nowIso(),
  };
  await db.insertInto("policy_secret_envs").values(row).execute();
  return { id: row.id, variable_names: Object.keys(env).sort(), created_at: row.created_at };
}

export interface NewPolicyVersion {
  name: string;
  container_image_id?: string | undefined;
  policy_bundle_id?: string | undefined;
  run?: string[] | undefined;
  /** A bundle kept without `run` (a cogames upload: it runs in the hosted service's runner). */
  runless?: boolean;
  policy_secret_env_id?: string | undefined;
  tags?: Record<string, string> | undefined;
  player_id?: string | undefined;
}

/**
 * A bundled policy's `run` must start something the bundle holds: one of its arguments names a
 * file of the bundle (`./` or not). Otherwise the runner would start it and wait in vain for it
 * to connect; here the caller learns at once which file is missing.
 */
async function checkRunNamesAFile(
  blobs: BlobStore,
  bundle: UploadsTable,
  run: string[],
): Promise<void> {
  const bytes = await blobs.get(bundle.sha256);
  const listing = bytes ? await inspectTarGz(bytes) : null;
  if (!listing?.ok) return;
  const strip = (p: string) => p.replace(/^(\.\/)+/, "");
  const files = new Set(listing.files.map(strip));
  if (run.some((arg) => files.has(strip(arg)))) return;
  // The argument that looks most like the missing file: the first with a dot or a slash.
  const named = run.find((arg) => /[./]/.test(arg)) ?? run[0] ?? "";
  throw invalidInput(
    ["body", "run"],
    `run names ${JSON.stringify(named)}, which is not a file in policy bundle ${bundle.id}`,
    "value_error",
    run,
  );
}

/** A new version of the caller's policy `name`: versions count up from 1 per name and owner. */
export async function createPolicyVersion(
  db: Kysely<Database>,
  blobs: BlobStore,
  identity: AuthenticatedIdentity,
  input: NewPolicyVersion,
): Promise<{ id: string; name: string; version: number }> {
  if (!input.container_image_id && !input.policy_bundle_id)
    throw invalidInput(
      ["body", "container_image_id"],
      "a policy version needs container_image_id or policy_bundle_id",
      "missing",
    );
  if (input.policy_bundle_id && !input.run && !input.runless)
    throw invalidInput(
      ["body", "run"],
      "a bundled policy needs `run`: the argv that starts it inside the bundle",
      "missing",
    );
  if (input.container_image_id)
    await ownedImage(db, identity, input.container_image_id, ["body", "container_image_id"]);
  if (input.policy_bundle_id) {
    const bundle = await ownedUpload(db, identity, input.policy_bundle_id, "policy-bundle", [
      "body",
      "policy_bundle_id",
    ]);
    if (input.run) await checkRunNamesAFile(blobs, bundle, input.run);
  }
  if (input.policy_secret_env_id) {
    const env = await db
      .selectFrom("policy_secret_envs")
      .select(["id", "owner_user_id"])
      .where("id", "=", input.policy_secret_env_id)
      .executeTakeFirst();
    if (!env || env.owner_user_id !== identity.userId)
      throw invalidInput(
        ["body", "policy_secret_env_id"],
        `secret environment ${input.policy_secret_env_id} does not exist`,
        "value_error",
        input.policy_secret_env_id,
      );
  }
  const playerId = input.player_id ?? (identity.kind === "player" ? identity.subjectId : undefined);
  if (playerId) {
    const player = await db
      .selectFrom("players")
      .select(["id", "owner_user_id"])
      .where("id", "=", playerId)
      .executeTakeFirst();
    if (!player || player.owner_user_id !== identity.userId)
      throw invalidInput(
        ["body", "player_id"],
        `player ${playerId} does not exist`,
        "value_error",
        playerId,
      );
  }
  return db.transaction().execute(async (trx) => {
    let policy = await trx
      .selectFrom("policies")
      .selectAll()
      .where("owner_user_id", "=", identity.userId)
      .where("name", "=", input.name)
      .executeTakeFirst();
    if (!policy) {
      policy = {
        id: randomUUID(),
        owner_user_id: identity.userId,
        name: input.name,
        created_at: nowIso(),
      };
      await trx.insertInto("policies").values(policy).execute();
    }
    const last = await trx
      .selectFrom("policy_versions")
      .select((eb) => eb.fn.max("version").as("v"))
      .where("policy_id", "=", policy.id)
      .executeTakeFirst();
    const version = Number(last?.v ?? 0) + 1;
    const id = randomUUID();
    try {
      await trx
        .insertInto("policy_versions")
        .values({
          id,
          policy_id: policy.id,
          version,
          container_image_id: input.container_image_id ?? null,
          bundle_upload_id: input.policy_bundle_id ?? null,
          run: input.run ? JSON.stringify(input.run) : null,
          secret_env_id: input.policy_secret_env_id ?? null,
          tags: JSON.stringify(input.tags ?? {}),
          player_id: playerId ?? null,
          open_to_scrimmage: 0,
          created_at: nowIso(),
        })
        .execute();
    } catch (error) {
      // Two versions created at once for the same policy: the unique (policy, version) decides.
      throw conflict(
        `another version of ${input.name} was created at the same moment; retry`,
        "conflict",
        { cause: String(error) },
      );
    }
    return { id, name: policy.name, version };
  });
}

type PolicyVersionRow = Awaited<
  ReturnType<ReturnType<typeof policyVersionsBase>["execute"]>
>[number];

export function policyVersionsBase(db: Kysely<Database>) {
  return db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .selectAll("pv")
    .select(["p.name as policy_name", "p.owner_user_id", "p.created_at as policy_created_at"]);
}

/** A version as the caller may see it: its recipe (run, bundle, image, secrets) only for its owner and admins. */
export function toPolicyVersion(identity: Identity, row: PolicyVersionRow): PolicyVersion {
  const seen: PolicyVersion = {
    id: row.id,
    policy: { id: row.policy_id, name: row.policy_name },
    version: row.version,
    player_id: row.player_id,
    owner_user_id: row.owner_user_id,
    tags: parseJson(row.tags),
    open_to_scrimmage: row.open_to_scrimmage === 1,
    created_at: row.created_at,
    user_id: row.owner_user_id,
    policy_id: row.policy_id,
    name: row.policy_name,
    policy_created_at: row.policy_created_at,
  };
  if (!canInspectVersion(identity, row)) return seen;
  return {
    ...seen,
    container_image_id: row.container_image_id,
    policy_bundle_id: row.bundle_upload_id,
    run: row.run ? parseJson<string[]>(row.run) : null,
    has_secret_env: row.secret_env_id !== null,
  };
}

export async function listPolicyVersions(
  db: Kysely<Database>,
  identity: Identity,
  filter: {
    name?: string | undefined;
    nameExact?: string | undefined;
    version?: number | undefined;
    mine?: boolean | undefined;
    playerId?: string | undefined;
    limit: number;
    offset?: number;
  },
) {
  let q = policyVersionsBase(db).where("pv.id", "in", visibleVersionIds(db, identity));
  if (filter.name) q = q.where("p.name", "like", `%${filter.name.replace(/[%_]/g, "")}%`);
  if (filter.nameExact) q = q.where("p.name", "=", filter.nameExact);
  if (filter.version !== undefined) q = q.where("pv.version", "=", filter.version);
  if (filter.playerId) q = q.where("pv.player_id", "=", filter.playerId);
  if (filter.mine) {
    if (!isAuthenticated(identity)) return { entries: [], total: 0 };
    q = q.where("p.owner_user_id", "=", identity.userId);
  }
  const total = Number(
    (
      await q
        .clearSelect()
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  const rows = await q
    .orderBy("pv.created_at", "desc")
    .orderBy("pv.id")
    .limit(filter.limit)
    .offset(filter.offset ?? 0)
    .execute();
  return { entries: rows.map((row) => toPolicyVersion(identity, row)), total };
}

export async function getPolicyVersion(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<PolicyVersion> {
  const row = await policyVersionsBase(db)
    .where("pv.id", "=", id)
    .where("pv.id", "in", visibleVersionIds(db, identity))
    .executeTakeFirst();
  if (!row) throw notFound("policy version", id);
  return toPolicyVersion(identity, row);
}
