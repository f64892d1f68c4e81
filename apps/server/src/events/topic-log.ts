// The event log read by topic, for a subscriber's replay: the rows of its divisions, leagues and
// (for `episode-requests:mine`) its own episodes, after a seq, oldest first.
import type { Kysely } from "kysely";
import { isAuthenticated, type Identity } from "../domain/identity.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import type { Topic } from "./topics.ts";

export async function eventsForTopics(db: Kysely<Database>, identity: Identity, topics: readonly Topic[], after: number, limit: number): Promise<CompetitionEventsTable[]> {
  const divisions = topics.flatMap((t) => (t.kind === "division" ? [t.id] : []));
  const leagues = topics.flatMap((t) => (t.kind === "league" ? [t.id] : []));
  const mine = topics.some((t) => t.kind === "mine") && isAuthenticated(identity) ? identity.userId : null;
  if (divisions.length === 0 && leagues.length === 0 && mine === null) return [];
  const rows = await db
    .selectFrom("competition_events")
    .selectAll()
    .where("seq", ">", after)
    .where((eb) =>
      eb.or([
        ...(divisions.length ? [eb("division_id", "in", divisions)] : []),
        ...(leagues.length ? [eb("league_id", "in", leagues)] : []),
        ...(mine !== null ? [eb.and([eb("user_id", "=", mine), eb("episode_request_id", "is not", null)])] : []),
      ]),
    )
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}
