// Live-event topics (docs/api.md, "Groups"): what a subscriber may ask for, and which topic of
// a subscriber an event arrives on.
import type { Kysely } from "kysely";

import { DivisionId, LeagueId, liveTopicPatterns } from "@gauntlet/core";

import { canSeeEvent } from "../access/events.ts";
import { canSeeDivision, canSeeLeague } from "../access/leagues.ts";
import { isAuthenticated, type Identity } from "../auth/identity.ts";
import type { EventScope, TopicRules } from "../events/topic-rules.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import { divisionWithLeague } from "./divisions.ts";

export type Topic =
  | { kind: "division"; id: string; name: string }
  | { kind: "league"; id: string; name: string }
  | { kind: "mine"; name: string };

export function parseTopic(name: string): Topic | null {
  if (name === "episode-requests:mine") return { kind: "mine", name };
  const [kind, id, ...rest] = name.split(":");
  if (rest.length > 0 || id === undefined) return null;
  if (kind === "division" && DivisionId.safeParse(id).success) return { kind, id, name };
  if (kind === "league" && LeagueId.safeParse(id).success) return { kind, id, name };
  return null;
}

/**
 * Why the caller may not subscribe to the topic, or null when it may. Unseen and missing look the
 * same.
 */
export async function refuseTopic(
  db: Kysely<Database>,
  identity: Identity,
  topic: Topic,
): Promise<string | null> {
  switch (topic.kind) {
    case "mine":
      return isAuthenticated(identity) ? null : `${topic.name} needs a bearer token`;
    case "league": {
      const league = await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", topic.id)
        .executeTakeFirst();
      return league && canSeeLeague(identity, league)
        ? null
        : `${topic.name}: league ${topic.id} was not found`;
    }
    case "division": {
      const found = await divisionWithLeague(db, topic.id);
      return found && canSeeDivision(identity, found.league, found.division)
        ? null
        : `${topic.name}: division ${topic.id} was not found`;
    }
  }
}

export function mayReceive(
  identity: Identity,
  row: CompetitionEventsTable,
  scope: EventScope,
): boolean {
  return canSeeEvent(identity, { event: row, league: scope.league, division: scope.division });
}

/** The first of the subscriber's topics that the event belongs to, or null. */
export function topicOf(
  identity: Identity,
  topics: Iterable<Topic>,
  row: CompetitionEventsTable,
): string | null {
  for (const topic of topics) {
    if (topic.kind === "division" && row.division_id === topic.id) return topic.name;
    if (topic.kind === "league" && row.league_id === topic.id) return topic.name;
    if (
      topic.kind === "mine" &&
      row.episode_request_id !== null &&
      isAuthenticated(identity) &&
      row.user_id === identity.userId
    )
      return topic.name;
  }
  return null;
}

/** The topics an event may be on: its division's, its league's, and its owner's own episodes. */
export function routesOf(row: CompetitionEventsTable): string[] {
  const names: string[] = [];
  if (row.division_id !== null) names.push(`division:${row.division_id}`);
  if (row.league_id !== null) names.push(`league:${row.league_id}`);
  if (row.episode_request_id !== null && row.user_id !== null) names.push("episode-requests:mine");
  return names;
}

/** The event log read by topic, for a resuming subscriber: the rows of its divisions, leagues and
 * (for `episode-requests:mine`) its own episodes, after a seq, oldest first. */
export async function eventsForTopics(
  db: Kysely<Database>,
  identity: Identity,
  topics: readonly Topic[],
  after: number,
  limit: number,
): Promise<CompetitionEventsTable[]> {
  const divisions = topics.flatMap((t) => (t.kind === "division" ? [t.id] : []));
  const leagues = topics.flatMap((t) => (t.kind === "league" ? [t.id] : []));
  const mine =
    topics.some((t) => t.kind === "mine") && isAuthenticated(identity) ? identity.userId : null;
  if (divisions.length === 0 && leagues.length === 0 && mine === null) return [];
  const rows = await db
    .selectFrom("competition_events")
    .selectAll()
    .where("seq", ">", after)
    .where((eb) =>
      eb.or([
        ...(divisions.length ? [eb("division_id", "in", divisions)] : []),
        ...(leagues.length ? [eb("league_id", "in", leagues)] : []),
        ...(mine !== null
          ? [eb.and([eb("user_id", "=", mine), eb("episode_request_id", "is not", null)])]
          : []),
      ]),
    )
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** League play's topics, given to the live-events layer by the composition root. */
export const leagueTopicRules: TopicRules<Topic> = {
  parse: parseTopic,
  patterns: liveTopicPatterns,
  refuse: refuseTopic,
  mayReceive,
  topicOf,
  routes: routesOf,
  backlog: eventsForTopics,
};
