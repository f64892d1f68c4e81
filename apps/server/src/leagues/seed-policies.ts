// The league's seed (filler) policy versions: they fill empty seats under
// `too_few_players: filler_policy`, playing with a rating but never ranked.
import type { Kysely } from "kysely";

import type { PolicyVersionRef } from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { invalidInput } from "../shared/errors.ts";
import type { Database, LeaguesTable } from "../store/schema.ts";
import { getCommissionedLeagueRow, getVisibleLeagueRow } from "./leagues.ts";
import { policyVersionRefs } from "./refs.ts";

async function view(db: Kysely<Database>, league: LeaguesTable) {
  const ids = parseJson<string[]>(league.filler_policy_version_ids);
  const refs = await policyVersionRefs(db, ids);
  return {
    policy_version_ids: ids,
    policy_versions: ids.flatMap((id): PolicyVersionRef[] => {
      const ref = refs.get(id);
      return ref ? [ref] : [];
    }),
  };
}

export async function getSeedPolicies(db: Kysely<Database>, identity: Identity, leagueId: string) {
  return view(db, await getVisibleLeagueRow(db, identity, leagueId));
}

/**
 * Fillers are the commissioner's own policy versions (admins may name any): a filler's episodes
 * are requested by the commissioner, who may then read its seat's logs.
 */
export async function replaceSeedPolicies(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  ids: readonly string[],
) {
  const league = await getCommissionedLeagueRow(db, identity, leagueId);
  const unique = [...new Set(ids)];
  const owned = unique.length
    ? await db
        .selectFrom("policy_versions as pv")
        .innerJoin("policies as p", "p.id", "pv.policy_id")
        .select(["pv.id", "p.owner_user_id"])
        .where("pv.id", "in", unique)
        .execute()
    : [];
  const mayUse = new Set(
    owned.filter((v) => ownsOrAdmin(identity, v.owner_user_id)).map((v) => v.id),
  );
  unique.forEach((id) => {
    if (!mayUse.has(id))
      throw invalidInput(
        ["body", "policy_version_ids", ids.indexOf(id)],
        `policy version ${id} does not exist or is not yours`,
        "value_error",
        id,
      );
  });
  const filler_policy_version_ids = JSON.stringify(unique);
  await db
    .updateTable("leagues")
    .set({ filler_policy_version_ids, updated_at: nowIso() })
    .where("id", "=", league.id)
    .execute();
  return view(db, { ...league, filler_policy_version_ids });
}
