// Writes that make events: the work and its events commit together, and the events are
// published once committed. Events are appended after the work, so the event counter is always
// the last lock a transaction takes (no lock-order cycles with other counters).
import type { Kysely, Transaction } from "kysely";

import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import type { EventBus } from "./bus.ts";
import { appendEvents, type NewEvent } from "./event-log.ts";

export type Emit = (event: NewEvent) => void;

export async function withEvents<T>(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  work: (trx: Transaction<Database>, emit: Emit) => Promise<T>,
): Promise<T> {
  let rows: CompetitionEventsTable[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const events: NewEvent[] = [];
    const value = await work(trx, (event) => events.push(event));
    rows = await appendEvents(trx, events);
    return value;
  });
  bus.publish(rows);
  return result;
}
