// coworld's `patch-commissioner`: the next version of a coworld name, made from its canonical
// version with one commissioner runnable's image replaced by one of the caller's container
// images. Only the name's owner (as a person) or an admin; the image must be the caller's own.
import type { Kysely } from "kysely";
import semver from "semver";

import { CoworldManifest, type BodyOf, type Coworld } from "@gauntlet/core";

import { managesCoworldName } from "../access/coworld-names.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { ownedImage } from "../policies/policies.ts";
import { parseJson } from "../shared/clock.ts";
import { forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { listCoworlds, uploadCoworld } from "./coworlds.ts";

export async function patchCommissioner(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: BodyOf<"patchCoworldCommissioner">,
): Promise<Coworld> {
  const canonical = (await listCoworlds(db, { name: input.coworld_name, canonicalOnly: true }))[0];
  if (!canonical) throw notFound("coworld", input.coworld_name);
  if (!managesCoworldName(identity, canonical.owner_user_id))
    throw forbidden(`the coworld name ${input.coworld_name} belongs to another user`);
  const image = await ownedImage(db, identity, input.container_image_id, [
    "body",
    "container_image_id",
  ]);
  if (image.status !== "complete")
    throw invalidInput(
      ["body", "container_image_id"],
      `container image ${image.id} is not complete yet`,
      "value_error",
      image.id,
    );
  const row = await db
    .selectFrom("coworlds")
    .select(["manifest", "bundle_sha256", "size_bytes"])
    .where("id", "=", canonical.id)
    .executeTakeFirstOrThrow();
  // The manifest as stored (unknown fields included), so the new version differs only where patched.
  const manifest = parseJson<Record<string, unknown>>(row.manifest);
  const commissioners = CoworldManifest.parse(manifest).commissioner ?? [];
  const index =
    input.runnable_id !== undefined
      ? commissioners.findIndex((c) => c.id === input.runnable_id)
      : commissioners.length === 1
        ? 0
        : -1;
  if (index < 0)
    throw invalidInput(
      ["body", "runnable_id"],
      commissioners.length === 0
        ? `${canonical.name} ${canonical.version} has no commissioner runnable`
        : input.runnable_id !== undefined
          ? `no commissioner runnable ${input.runnable_id}; the coworld has: ${commissioners.map((c) => c.id).join(", ")}`
          : `the coworld has several commissioner runnables; name one: ${commissioners.map((c) => c.id).join(", ")}`,
      input.runnable_id !== undefined || commissioners.length === 0 ? "value_error" : "missing",
      input.runnable_id,
    );
  const version = input.version ?? semver.inc(canonical.version, "patch");
  if (version === null || semver.valid(version) === null)
    throw invalidInput(["body", "version"], "must be a semver version", "value_error", version);
  const game = manifest.game as Record<string, unknown>;
  const patched = {
    ...manifest,
    game: { ...game, version },
    commissioner: commissioners.map((c, i) => (i === index ? { ...c, image: image.id } : c)),
  };
  const bundleBytes = row.size_bytes - Buffer.byteLength(row.manifest);
  return uploadCoworld(db, identity, {
    manifest: patched,
    bundle:
      row.bundle_sha256 === null
        ? undefined
        : { sha256: row.bundle_sha256, size_bytes: Math.max(0, bundleBytes) },
  });
}
