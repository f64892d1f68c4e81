// Coworlds: versions of a manifest with their files. The first uploader owns the name, the
// highest semver is canonical, and each name has a game.
import { createHash } from "node:crypto";

import type { Kysely } from "kysely";
import semver from "semver";

import {
  CoworldManifest,
  newId,
  toValidationItems,
  type Certification,
  type Coworld,
  type GameSecretRecord,
} from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { openCoworldSpaces } from "../forums/coworld-spaces.ts";
import { findUpload } from "../policies/policies.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, InputError, invalidInput, notFound } from "../shared/errors.ts";
import type { CertificationsTable, CoworldsTable, Database } from "../store/schema.ts";

function canonicalIds(rows: Pick<CoworldsTable, "id" | "name" | "version">[]): Set<string> {
  const best = new Map<string, Pick<CoworldsTable, "id" | "version">>();
  for (const row of rows) {
    const current = best.get(row.name);
    if (!current || semver.gt(row.version, current.version)) best.set(row.name, row);
  }
  return new Set([...best.values()].map((r) => r.id));
}

function toCoworld(row: CoworldsTable, canonical: boolean): Coworld {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    manifest: parseJson(row.manifest),
    manifest_hash: row.manifest_hash,
    size_bytes: row.size_bytes,
    canonical,
    owner_user_id: row.owner_user_id,
    game_id: row.game_id,
    has_bundle: row.bundle_sha256 !== null,
    created_at: row.created_at,
  };
}

async function versionsOf(db: Kysely<Database>, name: string) {
  return db
    .selectFrom("coworlds")
    .select(["id", "name", "version", "owner_user_id", "game_id"])
    .where("name", "=", name)
    .execute();
}

export interface UploadInput {
  manifest: unknown;
  bundleUploadId?: string | undefined;
  /** The files of another version of the name, carried over (a commissioner patch). */
  bundle?: { sha256: string; size_bytes: number } | undefined;
  /** Skip the ownership check (the server's own example registration). */
  asOwner?: boolean;
}

export async function uploadCoworld(
  db: Kysely<Database>,
  identity: Pick<AuthenticatedIdentity, "userId" | "adminRole" | "elevated" | "kind" | "subjectId">,
  input: UploadInput,
): Promise<Coworld> {
  const parsed = CoworldManifest.safeParse(input.manifest);
  if (!parsed.success)
    throw new InputError(
      toValidationItems(
        "body",
        parsed.error.issues.map((i) => ({ ...i, path: ["manifest", ...i.path] })),
        { manifest: input.manifest },
      ),
    );
  const manifest = parsed.data;
  const { name, version } = manifest.game;
  let bundleSha: string | null = null;
  let bundleSize = 0;
  if (input.bundle) {
    bundleSha = input.bundle.sha256;
    bundleSize = input.bundle.size_bytes;
  } else if (input.bundleUploadId) {
    const upload = await findUpload(
      db,
      identity as AuthenticatedIdentity,
      input.bundleUploadId,
      "coworld-bundle",
      ["body", "bundle_upload_id"],
    );
    bundleSha = upload.sha256;
    bundleSize = upload.size_bytes;
  } else if ([manifest.game.runnable, ...manifest.player].some((r) => r.image === undefined)) {
    throw invalidInput(
      ["body", "bundle_upload_id"],
      "runnables without an image run from the coworld's files: upload them (POST /v2/coworlds/bundles) and pass bundle_upload_id",
      "missing",
    );
  }
  const manifestText = JSON.stringify(input.manifest);
  const existing = await versionsOf(db, name);
  const owner = existing[0]?.owner_user_id;
  if (owner && !ownsOrAdmin(identity, owner))
    throw forbidden(`the coworld name ${name} belongs to another user`);
  if (existing.some((r) => r.version === version))
    throw conflict(`${name} ${version} already exists; upload a new version`, "conflict");
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    let gameId = existing[0]?.game_id;
    if (!gameId) {
      const game = await trx
        .selectFrom("games")
        .select(["id", "owner_user_id"])
        .where("name", "=", name)
        .executeTakeFirst();
      if (game && game.owner_user_id !== (owner ?? identity.userId) && !actsAsAdmin(identity))
        throw forbidden(`a game named ${name} belongs to another user`);
      gameId = game?.id ?? newId("game");
      if (!game) {
        await trx
          .insertInto("games")
          .values({
            id: gameId,
            name,
            owner_user_id: identity.userId,
            coworld_name: name,
            coworld_id: null,
            description: manifest.game.description,
            notes: null,
            created_at: now,
          })
          .execute();
      }
      // The first version of a name opens its forum and wiki.
      await openCoworldSpaces(trx, name, now);
    }
    const row: CoworldsTable = {
      id: newId("coworld"),
      name,
      version,
      owner_user_id: owner ?? identity.userId,
      game_id: gameId,
      manifest: manifestText,
      manifest_hash: createHash("sha256").update(manifestText).digest("hex"),
      bundle_sha256: bundleSha,
      size_bytes: Buffer.byteLength(manifestText) + bundleSize,
      created_at: now,
    };
    await trx.insertInto("coworlds").values(row).execute();
    const canonical = canonicalIds([...existing, row]);
    if (canonical.has(row.id))
      await trx
        .updateTable("games")
        .set({ coworld_name: name, coworld_id: row.id })
        .where("id", "=", gameId)
        .execute();
    return toCoworld(row, canonical.has(row.id));
  });
}

export async function listCoworlds(
  db: Kysely<Database>,
  filter: { name?: string | undefined; canonicalOnly?: boolean | undefined },
): Promise<Coworld[]> {
  let q = db.selectFrom("coworlds").selectAll();
  if (filter.name) q = q.where("name", "=", filter.name);
  const rows = await q.orderBy("name").orderBy("created_at").execute();
  const canonical = canonicalIds(rows);
  return rows
    .filter((r) => !filter.canonicalOnly || canonical.has(r.id))
    .map((r) => toCoworld(r, canonical.has(r.id)));
}

export async function getCoworldRow(db: Kysely<Database>, id: string): Promise<CoworldsTable> {
  const row = await db.selectFrom("coworlds").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("coworld", id);
  return row;
}

export async function getCoworld(db: Kysely<Database>, id: string): Promise<Coworld> {
  const row = await getCoworldRow(db, id);
  return toCoworld(row, canonicalIds(await versionsOf(db, row.name)).has(row.id));
}

export function toCertification(
  coworldId: string,
  row: CertificationsTable | undefined,
): Certification {
  return {
    coworld_id: coworldId,
    state: row?.state ?? "never_run",
    certified: row?.state === "certified",
    episode_request_id: row?.episode_request_id ?? null,
    error: row?.error ?? null,
    updated_at: row?.updated_at ?? null,
  };
}

export async function getCertification(
  db: Kysely<Database>,
  coworldId: string,
): Promise<Certification> {
  await getCoworldRow(db, coworldId);
  return toCertification(
    coworldId,
    await db
      .selectFrom("certifications")
      .selectAll()
      .where("coworld_id", "=", coworldId)
      .executeTakeFirst(),
  );
}

// Secrets: values are sealed at rest and go only into the game process of that coworld.

async function ownedName(db: Kysely<Database>, identity: AuthenticatedIdentity, name: string) {
  const versions = await versionsOf(db, name);
  const first = versions[0];
  if (!first) throw notFound("coworld", name);
  if (!ownsOrAdmin(identity, first.owner_user_id)) throw notFound("coworld", name);
  const canonical = canonicalIds(versions);
  return {
    ownerUserId: first.owner_user_id,
    canonicalId: versions.find((v) => canonical.has(v.id))?.id ?? first.id,
  };
}

function secretRecord(
  name: string,
  canonicalId: string,
  row: { owner_user_id: string; secret_name: string; size_bytes: number; updated_at: string },
): GameSecretRecord {
  return {
    coworld_id: canonicalId,
    coworld_name: name,
    owner_user_id: row.owner_user_id,
    secret_name: row.secret_name,
    size_bytes: row.size_bytes,
    updated_at: row.updated_at,
  };
}

export async function putSecret(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  name: string,
  secretName: string,
  value: Uint8Array,
): Promise<GameSecretRecord> {
  const { ownerUserId, canonicalId } = await ownedName(db, identity, name);
  if (value.byteLength === 0) throw invalidInput(["body"], "the secret value is empty", "missing");
  if (value.byteLength > 64 * 1024)
    throw invalidInput(["body"], "a secret value holds at most 64 KiB", "too_long");
  const text = Buffer.from(value).toString("utf8");
  const row = {
    coworld_name: name,
    secret_name: secretName,
    owner_user_id: ownerUserId,
    ciphertext: box.seal(text),
    size_bytes: value.byteLength,
    updated_at: nowIso(),
  };
  await db
    .insertInto("coworld_secrets")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["coworld_name", "secret_name"]).doUpdateSet({
        ciphertext: row.ciphertext,
        size_bytes: row.size_bytes,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  return secretRecord(name, canonicalId, row);
}

export async function listSecrets(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  name: string,
): Promise<GameSecretRecord[]> {
  const { canonicalId } = await ownedName(db, identity, name);
  const rows = await db
    .selectFrom("coworld_secrets")
    .select(["owner_user_id", "secret_name", "size_bytes", "updated_at"])
    .where("coworld_name", "=", name)
    .orderBy("secret_name")
    .execute();
  return rows.map((r) => secretRecord(name, canonicalId, r));
}

export async function deleteSecret(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  name: string,
  secretName: string,
): Promise<GameSecretRecord> {
  const { canonicalId } = await ownedName(db, identity, name);
  const row = await db
    .selectFrom("coworld_secrets")
    .select(["owner_user_id", "secret_name", "size_bytes", "updated_at"])
    .where("coworld_name", "=", name)
    .where("secret_name", "=", secretName)
    .executeTakeFirst();
  if (!row) throw notFound("secret", `${name}/${secretName}`);
  await db
    .deleteFrom("coworld_secrets")
    .where("coworld_name", "=", name)
    .where("secret_name", "=", secretName)
    .execute();
  return secretRecord(name, canonicalId, row);
}
