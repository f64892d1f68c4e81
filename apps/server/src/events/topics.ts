// Live-event topics (API.md "Live events"): what a subscriber may ask for, and which topic of
// a subscriber an event arrives on.
import type { Kysely } from "kysely";
import { isAuthenticated, type Identity } from "../domain/identity.ts";
import { canSeeLeague } from "../domain/leagues.ts";
import { canSeeAudience, canSeeDivision } from "../league-play/visibility.ts";
import type { CompetitionEventsTable, Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { DivisionId, ExperienceRequestId, LeagueId } from "@gauntlet/core";

export type Topic =
  | { kind: "division"; id: string; name: string }
  | { kind: "league"; id: string; name: string }
  | { kind: "experience-request"; id: string; name: string }
  | { kind: "mine"; name: string };

export function parseTopic(name: string): Topic | null {
  if (name === "episode-requests:mine") return { kind: "mine", name };
  const [kind, id, ...rest] = name.split(":");
  if (rest.length > 0 || id === undefined) return null;
  if (kind === "division" && DivisionId.safeParse(id).success) return { kind, id, name };
  if (kind === "league" && LeagueId.safeParse(id).success) return { kind, id, name };
  if (kind === "experience-request" && ExperienceRequestId.safeParse(id).success) return { kind, id, name };
  return null;
}

/** Why the caller may not subscribe to the topic, or null when it may. Unseen and missing look the same. */
export async function refuseTopic(db: Kysely<Database>, identity: Identity, topic: Topic): Promise<string | null> {
  switch (topic.kind) {
    case "mine":
      return isAuthenticated(identity) ? null : `${topic.name} needs a bearer token`;
    case "league": {
      const league = await db.selectFrom("leagues").selectAll().where("id", "=", topic.id).executeTakeFirst();
      return league && canSeeLeague(identity, league) ? null : `${topic.name}: league ${topic.id} was not found`;
    }
    case "experience-request": {
      // As its HTTP read: the requester and admins; anyone else finds nothing.
      const row = await db.selectFrom("experience_requests").select(["requester_user_id"]).where("id", "=", topic.id).executeTakeFirst();
      const allowed = row !== undefined && isAuthenticated(identity) && (identity.isAdmin || identity.userId === row.requester_user_id);
      return allowed ? null : `${topic.name}: experience request ${topic.id} was not found`;
    }
    case "division": {
      const division = await db.selectFrom("divisions").selectAll().where("id", "=", topic.id).executeTakeFirst();
      const league = division ? await db.selectFrom("leagues").selectAll().where("id", "=", division.league_id).executeTakeFirst() : undefined;
      return division && league && canSeeDivision(identity, league, division) ? null : `${topic.name}: division ${topic.id} was not found`;
    }
  }
}

/** The league and division an event belongs to, as they are now (visibility is checked at delivery). */
export interface EventScope {
  league: LeaguesTable | undefined;
  division: DivisionsTable | undefined;
}

export function mayReceive(identity: Identity, row: CompetitionEventsTable, scope: EventScope): boolean {
  if (!canSeeAudience(identity, row.audience, row.user_id, scope.league)) return false;
  if (row.league_id === null) return true;
  if (!scope.league || !canSeeLeague(identity, scope.league)) return false;
  return !scope.division || canSeeDivision(identity, scope.league, scope.division);
}

/** The first of the subscriber's topics that the event belongs to, or null. */
export function topicOf(identity: Identity, topics: Iterable<Topic>, row: CompetitionEventsTable): string | null {
  for (const topic of topics) {
    if (topic.kind === "division" && row.division_id === topic.id) return topic.name;
    if (topic.kind === "league" && row.league_id === topic.id) return topic.name;
    if (topic.kind === "experience-request" && row.experience_request_id === topic.id) return topic.name;
    if (topic.kind === "mine" && row.episode_request_id !== null && isAuthenticated(identity) && row.user_id === identity.userId) return topic.name;
  }
  return null;
}
