// Visibility as SQL, for lists: the leagues and divisions a caller may see (the rules of
// visibility.ts), as subqueries to filter by. Admins see everything (no filter).
import type { Kysely } from "kysely";

import { isAuthenticated, type Identity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";

export function visibleLeagueIds(db: Kysely<Database>, identity: Identity) {
  const me = isAuthenticated(identity) ? identity.userId : null;
  return db
    .selectFrom("leagues")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("public", "=", 1), eb("hidden", "=", 0), eb("disabled_at", "is", null)]),
        ...(me !== null ? [eb("commissioner_user_id", "=", me)] : []),
      ]),
    );
}

export function visibleDivisionIds(db: Kysely<Database>, identity: Identity) {
  const me = isAuthenticated(identity) ? identity.userId : null;
  return db
    .selectFrom("divisions as d")
    .innerJoin("leagues as l", "l.id", "d.league_id")
    .select("d.id")
    .where((eb) =>
      eb.or([
        eb.and([
          eb("l.public", "=", 1),
          eb("l.hidden", "=", 0),
          eb("l.disabled_at", "is", null),
          eb("d.hidden", "=", 0),
        ]),
        ...(me !== null ? [eb("l.commissioner_user_id", "=", me)] : []),
      ]),
    );
}

export function isAdmin(identity: Identity): boolean {
  return isAuthenticated(identity) && identity.isAdmin;
}
