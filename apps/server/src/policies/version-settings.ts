// A policy version's settings, changed by its owner: whether others may seat it anywhere
// (access/seating.ts).
import type { Kysely } from "kysely";

import type { PolicyVersion, UpdatePolicyVersionRequest } from "@gauntlet/core";

import { canInspectVersion } from "../access/versions.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { notFound } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { policyVersionsBase, toPolicyVersion } from "./policies.ts";

export async function updatePolicyVersion(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  patch: UpdatePolicyVersionRequest,
): Promise<PolicyVersion> {
  const found = await policyVersionsBase(db).where("pv.id", "=", id).executeTakeFirst();
  // Someone else's version reads as an unknown one.
  if (!found || !canInspectVersion(identity, found)) throw notFound("policy version", id);
  await db
    .updateTable("policy_versions")
    .set({ open_to_scrimmage: patch.open_to_scrimmage ? 1 : 0 })
    .where("id", "=", id)
    .execute();
  return toPolicyVersion(identity, {
    ...found,
    open_to_scrimmage: patch.open_to_scrimmage ? 1 : 0,
  });
}
