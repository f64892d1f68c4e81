// One recorded event on its way to subscribers: the row, its league and division as they are
// now (for visibility), and its WebSocket message, serialised once per topic (every subscriber of
// a topic is sent the same bytes; with ten thousand watchers that is most of the saving).
import type { Kysely } from "kysely";

import type { CompactCompetitionEvent, CompetitionEvent } from "@gauntlet/core";

import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import type { EventScope } from "./topic-rules.ts";

/** Events as the feed shows them, in the order of the rows (given by the feature that owns them). */
export type EventRenderer = (
  db: Kysely<Database>,
  rows: readonly CompetitionEventsTable[],
) => Promise<CompetitionEvent[]>;

export interface Delivery {
  readonly row: CompetitionEventsTable;
  readonly scope: EventScope;
  /** The `{seq, topic, type, data, at}` message for one topic as a whole WebSocket text frame
   * (server to client: unmasked), built once per topic and form and written as is to every
   * subscriber. `compact`: `data` is the CompactCompetitionEvent (subscribe's `compact`). */
  frame(topic: string, compact: boolean): Buffer;
}

export function makeDelivery(
  row: CompetitionEventsTable,
  event: CompetitionEvent,
  scope: EventScope,
): Delivery {
  let full: string | undefined;
  let compacted: string | undefined;
  // An event belongs to a division and a league (and perhaps `episode-requests:mine`): a few topics.
  const byTopic = new Map<string, Buffer>();
  const compactByTopic = new Map<string, Buffer>();
  return {
    row,
    scope,
    frame(topic: string, compact: boolean) {
      const frames = compact ? compactByTopic : byTopic;
      const built = frames.get(topic);
      if (built) return built;
      const data = compact
        ? (compacted ??= JSON.stringify(compactEvent(event)))
        : (full ??= JSON.stringify(event));
      const bytes = textFrame(
        `{"seq":${Number(row.seq)},"topic":${JSON.stringify(topic)},"type":${JSON.stringify(row.event_type)},"data":${data},"at":${JSON.stringify(row.created_at)}}`,
      );
      frames.set(topic, bytes);
      return bytes;
    },
  };
}

/** The event without the league and division it embeds: their ids instead. */
export function compactEvent(event: CompetitionEvent): CompactCompetitionEvent {
  const { league, division, ...rest } = event;
  return { ...rest, league_id: league?.id ?? null, division_id: division?.id ?? null };
}

/** The joined frames of deliveries handed together, by topic and form (the fan-out hands one
 * array to every subscriber of a topic: it is joined once, not once a subscriber). */
const joined = new WeakMap<readonly Delivery[], Map<string, Buffer>>();

/** The frames of `deliveries` on `topic`, back to back: one write for the whole batch. */
export function joinedFrames(
  deliveries: readonly Delivery[],
  topic: string,
  compact: boolean,
): Buffer {
  let byTopic = joined.get(deliveries);
  if (!byTopic) {
    byTopic = new Map();
    joined.set(deliveries, byTopic);
  }
  // A topic name has no space in it (topic-rules.ts): the key cannot be another topic's.
  const key = compact ? `compact ${topic}` : topic;
  let bytes = byTopic.get(key);
  if (!bytes) {
    bytes = Buffer.concat(deliveries.map((d) => d.frame(topic, compact)));
    byTopic.set(key, bytes);
  }
  return bytes;
}

/** One final, unmasked text frame (RFC 6455 5.2) holding `text`. */
export function textFrame(text: string): Buffer {
  const payload = Buffer.byteLength(text);
  const header = payload < 126 ? 2 : payload < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + payload);
  frame[0] = 0x81; // FIN, text
  if (header === 2) frame[1] = payload;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(payload, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(payload), 2);
  }
  frame.write(text, header, "utf8");
  return frame;
}

/** Deliveries for rows, loading each league and division once. */
export async function makeDeliveries(
  db: Kysely<Database>,
  rows: readonly CompetitionEventsTable[],
  render: EventRenderer,
): Promise<Delivery[]> {
  const events = await render(db, rows);
  const leagueIds = [...new Set(rows.flatMap((r) => (r.league_id ? [r.league_id] : [])))];
  const divisionIds = [...new Set(rows.flatMap((r) => (r.division_id ? [r.division_id] : [])))];
  const leagues = new Map(
    leagueIds.length
      ? (await db.selectFrom("leagues").selectAll().where("id", "in", leagueIds).execute()).map(
          (l) => [l.id, l],
        )
      : [],
  );
  const divisions = new Map(
    divisionIds.length
      ? (await db.selectFrom("divisions").selectAll().where("id", "in", divisionIds).execute()).map(
          (d) => [d.id, d],
        )
      : [],
  );
  return rows.map((row, i) => {
    const event = events[i];
    if (!event) throw new Error(`the event renderer gave no event for seq ${row.seq}`);
    return makeDelivery(row, event, {
      league: row.league_id ? leagues.get(row.league_id) : undefined,
      division: row.division_id ? divisions.get(row.division_id) : undefined,
    });
  });
}
