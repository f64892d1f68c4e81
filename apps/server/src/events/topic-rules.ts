// What a live subscriber may subscribe to and receive. The events layer delivers; the rules
// come from the features that own the topics (league play today), given by the composition root.
import type { Kysely } from "kysely";
import type { Identity } from "../auth/identity.ts";
import type { CompetitionEventsTable, Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";

/** A topic a subscriber holds; `name` is what it subscribed with. */
export interface LiveTopic {
  readonly name: string;
}

/** The league and division an event belongs to, as they are now (visibility is checked at delivery). */
export interface EventScope {
  league: LeaguesTable | undefined;
  division: DivisionsTable | undefined;
}

export interface TopicRules<T extends LiveTopic = LiveTopic> {
  /** The topic a name stands for, or null when the name is not a topic. */
  parse(name: string): T | null;
  /** The topic patterns, for the error that answers an unknown name. */
  readonly patterns: readonly string[];
  /** Why the caller may not subscribe to the topic, or null when it may. */
  refuse(db: Kysely<Database>, identity: Identity, topic: T): Promise<string | null>;
  /** Whether the caller may see this event at all. */
  mayReceive(identity: Identity, row: CompetitionEventsTable, scope: EventScope): boolean;
  /** The first of the subscriber's topics that the event belongs to, or null. */
  topicOf(identity: Identity, topics: Iterable<T>, row: CompetitionEventsTable): string | null;
  /** The logged events of these topics after a seq, oldest first (a resuming subscriber's replay). */
  backlog(db: Kysely<Database>, identity: Identity, topics: readonly T[], after: number, limit: number): Promise<CompetitionEventsTable[]>;
}
