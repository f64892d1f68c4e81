// Who may see a league and its divisions, in both forms: predicates over rows (reads of one
// object, WebSocket deliveries) and SQL subqueries (lists). access.property.test.ts checks that
// the two agree.
import type { Kysely } from "kysely";

import { actsAsUser, isAuthenticated, type Identity } from "../auth/identity.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { actsAsAdmin } from "./admin.ts";

export type LeagueFacts = Pick<
  LeaguesTable,
  "public" | "hidden" | "disabled_at" | "commissioner_user_id"
>;

/** The signed-in user's id, or null for anonymous callers. */
export function userIdOf(identity: Identity): string | null {
  return isAuthenticated(identity) ? identity.userId : null;
}

/** Who may see a league: public, unhidden, enabled ones everyone; others their commissioner and admins. */
export function canSeeLeague(identity: Identity, row: LeagueFacts): boolean {
  if (row.public === 1 && row.hidden === 0 && row.disabled_at === null) return true;
  return (
    isAuthenticated(identity) &&
    (actsAsAdmin(identity) || row.commissioner_user_id === identity.userId)
  );
}

/** Commissioner writes: the league's commissioner acting as a user (not a player or machine), or an admin. */
export function isCommissioner(
  identity: Identity,
  row: Pick<LeaguesTable, "commissioner_user_id">,
): boolean {
  return (
    isAuthenticated(identity) &&
    (actsAsAdmin(identity) ||
      (actsAsUser(identity) && row.commissioner_user_id === identity.userId))
  );
}

/** A hidden division is seen by its league's commissioner (and admins) only. */
export function canSeeDivision(
  identity: Identity,
  league: LeagueFacts,
  division: Pick<DivisionsTable, "hidden">,
): boolean {
  return (
    canSeeLeague(identity, league) && (division.hidden === 0 || isCommissioner(identity, league))
  );
}

/** The ids of the leagues the caller may see (canSeeLeague as SQL). */
export function visibleLeagueIds(db: Kysely<Database>, identity: Identity) {
  const me = userIdOf(identity);
  const q = db.selectFrom("leagues").select("id");
  if (actsAsAdmin(identity)) return q;
  return q.where((eb) =>
    eb.or([
      eb.and([eb("public", "=", 1), eb("hidden", "=", 0), eb("disabled_at", "is", null)]),
      ...(me !== null ? [eb("commissioner_user_id", "=", me)] : []),
    ]),
  );
}

/** The ids of the divisions the caller may see (canSeeDivision as SQL). */
export function visibleDivisionIds(db: Kysely<Database>, identity: Identity) {
  const q = db.selectFrom("divisions as d").innerJoin("leagues as l", "l.id", "d.league_id");
  if (actsAsAdmin(identity)) return q.select("d.id");
  // The commissioner's hidden divisions count only while they act as a user (isCommissioner).
  const commissioner = actsAsUser(identity) ? identity.userId : null;
  const me = userIdOf(identity);
  return q
    .select("d.id")
    .where((eb) =>
      eb.and([
        eb("d.league_id", "in", visibleLeagueIds(db, identity)),
        eb.or([
          eb("d.hidden", "=", 0),
          ...(commissioner !== null && me !== null
            ? [eb("l.commissioner_user_id", "=", commissioner)]
            : []),
        ]),
      ]),
    );
}
