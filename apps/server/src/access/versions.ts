// Who may see and inspect a policy version. A version is seen by its owner, admins, and anyone
// who sees a league it plays in (a membership: member or champion, any division). Seating it (a
// roster slot, an opponent, a tournament entrant) asks more, its owner's consent: seating.ts.
// Its recipe — run argv, bundle and image ids, whether it has secrets — is for its owner and
// admins only.
import type { Kysely } from "kysely";

import { type Identity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";
import { actsAsAdmin } from "./admin.ts";
import { canSeeLeague, userIdOf, visibleLeagueIds, type LeagueFacts } from "./leagues.ts";

export interface VersionFacts {
  owner_user_id: string;
  /** The leagues the version has a membership in. */
  leagues: readonly LeagueFacts[];
}

export function canSeeVersion(identity: Identity, version: VersionFacts): boolean {
  if (actsAsAdmin(identity) || userIdOf(identity) === version.owner_user_id) return true;
  return version.leagues.some((league) => canSeeLeague(identity, league));
}

/** The run argv, bundle and image ids and secrets flag of a version. */
export function canInspectVersion(
  identity: Identity,
  version: Pick<VersionFacts, "owner_user_id">,
): boolean {
  return actsAsAdmin(identity) || userIdOf(identity) === version.owner_user_id;
}

/** The ids of the versions the caller may see (canSeeVersion as SQL). */
export function visibleVersionIds(db: Kysely<Database>, identity: Identity) {
  const q = db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id");
  if (actsAsAdmin(identity)) return q.select("pv.id");
  const me = userIdOf(identity);
  return q
    .select("pv.id")
    .where((eb) =>
      eb.or([
        ...(me !== null ? [eb("p.owner_user_id", "=", me)] : []),
        eb(
          "pv.id",
          "in",
          db
            .selectFrom("league_policy_memberships")
            .select("policy_version_id")
            .where("league_id", "in", visibleLeagueIds(db, identity)),
        ),
      ]),
    );
}

/** The facts canSeeVersion needs, for some versions (absent ids are absent from the map). */
export async function versionFacts(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, VersionFacts>> {
  const out = new Map<string, VersionFacts>();
  if (ids.length === 0) return out;
  const owners = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "p.owner_user_id"])
    .where("pv.id", "in", [...ids])
    .execute();
  const leagues = await db
    .selectFrom("league_policy_memberships as m")
    .innerJoin("leagues as l", "l.id", "m.league_id")
    .select([
      "m.policy_version_id",
      "l.public",
      "l.hidden",
      "l.disabled_at",
      "l.commissioner_user_id",
    ])
    .where("m.policy_version_id", "in", [...ids])
    .execute();
  for (const o of owners) out.set(o.id, { owner_user_id: o.owner_user_id, leagues: [] });
  for (const l of leagues) {
    const facts = out.get(l.policy_version_id);
    if (facts) (facts.leagues as LeagueFacts[]).push(l);
  }
  return out;
}
