// Who may see a competition event (the feed, and every live delivery): an `owner` event is its
// user's, its league's commissioner's and admins'; any event of a league or division only for
// those who see that league and division (leagues.ts).
import type { Kysely } from "kysely";

import { actsAsUser, type Identity } from "../auth/identity.ts";
import type { CompetitionEventsTable, Database, DivisionsTable } from "../store/schema.ts";
import { actsAsAdmin } from "./admin.ts";
import {
  canSeeDivision,
  canSeeLeague,
  isCommissioner,
  userIdOf,
  visibleDivisionIds,
  visibleLeagueIds,
  type LeagueFacts,
} from "./leagues.ts";

export interface EventFacts {
  event: Pick<CompetitionEventsTable, "audience" | "user_id" | "league_id" | "division_id">;
  /** The event's league and division as they are now (undefined when it has none, or it is gone). */
  league: LeagueFacts | undefined;
  division: Pick<DivisionsTable, "hidden"> | undefined;
}

export function canSeeEvent(identity: Identity, facts: EventFacts): boolean {
  if (actsAsAdmin(identity)) return true;
  const { event, league, division } = facts;
  if (
    event.audience === "owner" &&
    !(
      (userIdOf(identity) !== null && event.user_id === userIdOf(identity)) ||
      (event.league_id !== null && league !== undefined && isCommissioner(identity, league))
    )
  )
    return false;
  if (event.league_id === null) return true;
  if (league === undefined || !canSeeLeague(identity, league)) return false;
  return (
    event.division_id === null ||
    (division !== undefined && canSeeDivision(identity, league, division))
  );
}

/** The ids of the events the caller may see (canSeeEvent as SQL). */
export function visibleEventIds(db: Kysely<Database>, identity: Identity) {
  const q = db.selectFrom("competition_events").select("id");
  if (actsAsAdmin(identity)) return q;
  const me = userIdOf(identity);
  const commissioner = actsAsUser(identity) ? identity.userId : null;
  return q.where((eb) =>
    eb.and([
      eb.or([
        eb("league_id", "is", null),
        eb.and([
          eb("league_id", "in", visibleLeagueIds(db, identity)),
          eb.or([
            eb("division_id", "is", null),
            eb("division_id", "in", visibleDivisionIds(db, identity)),
          ]),
        ]),
      ]),
      eb.or([
        eb("audience", "=", "public"),
        ...(me !== null ? [eb("user_id", "=", me)] : []),
        ...(commissioner !== null
          ? [
              eb(
                "league_id",
                "in",
                db
                  .selectFrom("leagues")
                  .select("id")
                  .where("commissioner_user_id", "=", commissioner),
              ),
            ]
          : []),
      ]),
    ]),
  );
}
