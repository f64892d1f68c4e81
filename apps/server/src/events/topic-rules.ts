// What a live subscriber may subscribe to and receive. The events layer delivers; the rules
// come from the features that own the topics (league play today), given by the composition root.
import type { Kysely } from "kysely";

import type { Identity } from "../auth/identity.ts";
import type {
  CompetitionEventsTable,
  Database,
  DivisionsTable,
  LeaguesTable,
} from "../store/schema.ts";

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
  /**
   * The names of every topic the event may be on, whoever subscribed: only their subscribers are
   * handed it (topicOf and mayReceive then decide for each). Must include every name topicOf can
   * return for the row.
   */
  routes(row: CompetitionEventsTable): string[];
  /** The logged events of these topics after a seq, oldest first (a resuming subscriber's replay). */
  backlog(
    db: Kysely<Database>,
    identity: Identity,
    topics: readonly T[],
    after: number,
    limit: number,
  ): Promise<CompetitionEventsTable[]>;
}

/** A topic of combined rules: the name, and which rules parsed it. */
interface CombinedTopic extends LiveTopic {
  readonly rulesIndex: number;
}

/** One part of combined rules, working on the topics its own rules parsed. */
function part<T extends LiveTopic>(index: number, rules: TopicRules<T>) {
  const parsed = new WeakMap<CombinedTopic, T>();
  // A subscriber's topic list is asked about for every event it is handed: its own part is
  // found once per list (a list is never changed; a subscriber makes a new one).
  const owned = new WeakMap<readonly CombinedTopic[], T[]>();
  const own = (topics: Iterable<CombinedTopic>): T[] => {
    const cached = Array.isArray(topics) ? owned.get(topics) : undefined;
    if (cached) return cached;
    const out: T[] = [];
    for (const t of topics) {
      const inner = t.rulesIndex === index ? parsed.get(t) : undefined;
      if (inner !== undefined) out.push(inner);
    }
    if (Array.isArray(topics)) owned.set(topics, out);
    return out;
  };
  return {
    parse(name: string): CombinedTopic | null {
      const topic = rules.parse(name);
      if (topic === null) return null;
      const combined: CombinedTopic = { name, rulesIndex: index };
      parsed.set(combined, topic);
      return combined;
    },
    patterns: rules.patterns,
    refuse: async (db: Kysely<Database>, identity: Identity, topic: CombinedTopic) => {
      const [inner] = own([topic]);
      return inner ? rules.refuse(db, identity, inner) : `${topic.name} is not a topic`;
    },
    mayReceive: (identity: Identity, row: CompetitionEventsTable, scope: EventScope) =>
      rules.mayReceive(identity, row, scope),
    topicOf: (identity: Identity, topics: Iterable<CombinedTopic>, row: CompetitionEventsTable) =>
      rules.topicOf(identity, own(topics), row),
    routes: (row: CompetitionEventsTable) => rules.routes(row),
    backlog: (
      db: Kysely<Database>,
      identity: Identity,
      topics: readonly CombinedTopic[],
      after: number,
      limit: number,
    ) => {
      const mine = own(topics);
      return mine.length ? rules.backlog(db, identity, mine, after, limit) : Promise.resolve([]);
    },
  };
}

/**
 * The topics of several features as one set of rules: a name belongs to the first rules that
 * parse it; an event is received only when every feature's rules allow it.
 */
export function combineTopicRules<A extends LiveTopic, B extends LiveTopic>(
  a: TopicRules<A>,
  b: TopicRules<B>,
): TopicRules<LiveTopic> {
  return combineParts([part(0, a), part(1, b)]);
}

type Part = ReturnType<typeof part<LiveTopic>>;

function combineParts(parts: Part[]): TopicRules<LiveTopic> {
  return {
    parse: (name) => parts.reduce<CombinedTopic | null>((found, p) => found ?? p.parse(name), null),
    patterns: [...new Set(parts.flatMap((p) => p.patterns))],
    refuse: (db, identity, topic) => {
      const p = parts[(topic as CombinedTopic).rulesIndex];
      return p
        ? p.refuse(db, identity, topic as CombinedTopic)
        : Promise.resolve(`${topic.name} is not a topic`);
    },
    mayReceive: (identity, row, scope) => parts.every((p) => p.mayReceive(identity, row, scope)),
    topicOf: (identity, topics, row) => {
      // Read once: each part looks through the whole list (the caller may pass an iterator).
      const list = (Array.isArray(topics) ? topics : [...topics]) as CombinedTopic[];
      return parts.reduce<string | null>(
        (found, p) => found ?? p.topicOf(identity, list, row),
        null,
      );
    },
    routes: (row) => parts.flatMap((p) => p.routes(row)),
    backlog: async (db, identity, topics, after, limit) => {
      const lists = await Promise.all(
        parts.map((p) => p.backlog(db, identity, topics as readonly CombinedTopic[], after, limit)),
      );
      const seen = new Set<string>();
      return lists
        .flat()
        .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .slice(0, limit);
    },
  };
}
