// The competition feed (GET /v2/competition-events), newest first, with the visibility of the
// HTTP reads: events of leagues and divisions the caller sees; `owner` events for their user,
// the league's commissioner and admins.
import type { CompetitionEvent, CompetitionEventType, EventAudience } from "@gauntlet/core";
import type { Kysely } from "kysely";
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import { toCompetitionEvent } from "../events/event-log.ts";
import type { Database } from "../store/schema.ts";
import { isAdmin, visibleDivisionIds, visibleLeagueIds } from "./visible-sql.ts";

export interface FeedFilter {
  league_id?: string | undefined;
  division_id?: string | undefined;
  round_id?: string | undefined;
  event_type?: CompetitionEventType | undefined;
  audience?: EventAudience | undefined;
  player_id?: string | undefined;
  policy_version_id?: string | undefined;
  limit: number;
}

export async function listCompetitionEvents(db: Kysely<Database>, identity: Identity, filter: FeedFilter): Promise<CompetitionEvent[]> {
  let q = db.selectFrom("competition_events").selectAll();
  for (const key of ["league_id", "division_id", "round_id", "event_type", "audience", "player_id", "policy_version_id"] as const) {
    const value = filter[key];
    if (value !== undefined) q = q.where(key, "=", value);
  }
  if (!isAdmin(identity)) {
    const me = isAuthenticated(identity) ? identity.userId : null;
    q = q.where((eb) =>
      eb.and([
        eb.or([
          eb("league_id", "is", null),
          eb.and([eb("league_id", "in", visibleLeagueIds(db, identity)), eb.or([eb("division_id", "is", null), eb("division_id", "in", visibleDivisionIds(db, identity))])]),
        ]),
        eb.or([
          eb("audience", "=", "public"),
          ...(me !== null ? [eb("user_id", "=", me), eb("league_id", "in", db.selectFrom("leagues").select("id").where("commissioner_user_id", "=", me))] : []),
        ]),
      ]),
    );
  }
  const rows = await q.orderBy("seq", "desc").limit(filter.limit).execute();
  return rows.map(toCompetitionEvent);
}
