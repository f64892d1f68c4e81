// The event log: competition events are rows of `competition_events`, written in the
// transaction that made them happen. `seq` comes from a counter row that stays locked until
// that transaction commits, so seqs become visible in order and without gaps (a rolled-back
// transaction gives its number back). Live delivery and resumption both rest on that.
import { randomUUID } from "node:crypto";

import type { Kysely, Transaction } from "kysely";

import type { CompetitionEventType, EventAudience } from "@gauntlet/core";

import { nowIso } from "../shared/clock.ts";
import { nextValue } from "../shared/counters.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";

export const EVENT_SEQ = "competition_events";

/** Something an event is about. Only its id and name are kept: readers embed the object as it
 * is when they read (the feed renders events through the feature that owns them). */
export interface EventRef {
  readonly id: string;
  readonly name: string;
}

export interface EventRefs {
  player?: EventRef | null;
  policy_version?: EventRef | null;
  league?: EventRef | null;
  division?: EventRef | null;
}

const compact = (ref: EventRef | null | undefined) => (ref ? { id: ref.id, name: ref.name } : null);

export interface NewEvent {
  type: CompetitionEventType;
  /** `public` unless given. */
  audience?: EventAudience;
  userId?: string | null;
  roundId?: string | null;
  episodeRequestId?: string | null;
  experienceRequestId?: string | null;
  refs: EventRefs;
  headline: string;
  summary?: string;
  payload?: Record<string, unknown>;
}

/** Appends events in the caller's transaction; returns the stored rows (publish them after commit). */
export async function appendEvents(
  trx: Transaction<Database>,
  events: readonly NewEvent[],
): Promise<CompetitionEventsTable[]> {
  const rows: CompetitionEventsTable[] = [];
  const at = nowIso();
  for (const event of events) {
    const row: CompetitionEventsTable = {
      id: randomUUID(),
      seq: await nextValue(trx, EVENT_SEQ),
      event_type: event.type,
      audience: event.audience ?? "public",
      user_id: event.userId ?? null,
      league_id: event.refs.league?.id ?? null,
      division_id: event.refs.division?.id ?? null,
      round_id: event.roundId ?? null,
      episode_request_id: event.episodeRequestId ?? null,
      experience_request_id: event.experienceRequestId ?? null,
      player_id: event.refs.player?.id ?? null,
      policy_version_id: event.refs.policy_version?.id ?? null,
      refs: JSON.stringify({
        player: compact(event.refs.player),
        policy_version: compact(event.refs.policy_version),
        league: compact(event.refs.league),
        division: compact(event.refs.division),
      }),
      headline: event.headline,
      summary: event.summary ?? "",
      payload: JSON.stringify(event.payload ?? {}),
      created_at: at,
    };
    await trx.insertInto("competition_events").values(row).execute();
    rows.push(row);
  }
  return rows;
}

/** The newest seq, 0 when nothing was ever recorded. */
export async function lastEventSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("counters")
    .select("value")
    .where("name", "=", EVENT_SEQ)
    .executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/** Events with after < seq < before (before omitted: no upper bound), oldest first. */
export async function eventsAfter(
  db: Kysely<Database>,
  after: number,
  limit: number,
  before?: number,
): Promise<CompetitionEventsTable[]> {
  let q = db.selectFrom("competition_events").selectAll().where("seq", ">", after);
  if (before !== undefined) q = q.where("seq", "<", before);
  const rows = await q.orderBy("seq").limit(limit).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}
