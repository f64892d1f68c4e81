// Who may see a competition event (the feed, and every live delivery): an `owner` event is its
// user's, its league's commissioner's and admins'; any event of a league or division only for
// those who see that league and division (leagues.ts).
import type { ExpressionBuilder, Kysely } from "kysely";

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
  return actsAsAdmin(identity) ? q : q.where(visibleEventsFilter(db, identity));
}

/**
 * The same rule as a condition on `competition_events` rows, for a query of that table itself
 * (the feed), where `id in (visibleEventIds)` built the whole visible set for every page. The
 * league and division are compared through `coalesce` so that no index on them is usable: a
 * newest-first page then scans by `seq` and stops at its limit, where SQLite had merged the
 * league index's matches and sorted all of them (69 ms a page of 500 at 30,000 events, 1.5 ms
 * by `seq`). Not for an admin: every event is theirs to see.
 */
export function visibleEventsFilter(db: Kysely<Database>, identity: Identity) {
  const me = userIdOf(identity);
  const commissioner = actsAsUser(identity) ? identity.userId : null;
  return (eb: ExpressionBuilder<Database, "competition_events">) => {
    const league = eb.fn.coalesce("league_id", eb.val(""));
    const division = eb.fn.coalesce("division_id", eb.val(""));
    return eb.and([
      eb.or([
        eb("league_id", "is", null),
        eb.and([
          eb(league, "in", visibleLeagueIds(db, identity)),
          eb.or([
            eb("division_id", "is", null),
            eb(division, "in", visibleDivisionIds(db, identity)),
          ]),
        ]),
      ]),
      eb.or([
        eb("audience", "=", "public"),
        ...(me !== null ? [eb("user_id", "=", me)] : []),
        ...(commissioner !== null
          ? [
              eb(
                league,
                "in",
                db
                  .selectFrom("leagues")
                  .select("id")
                  .where("commissioner_user_id", "=", commissioner),
              ),
            ]
          : []),
      ]),
    ]);
  };
}
