// Monotonic counters in the store. The increment takes the row's lock until the transaction
// commits, so values become visible in the order they were handed out (a safe cursor).
import type { Transaction } from "kysely";

import type { Database } from "../store/schema.ts";

export async function nextValue(trx: Transaction<Database>, name: string): Promise<number> {
  await trx
    .insertInto("counters")
    .values({ name, value: 0 })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await trx
    .updateTable("counters")
    .set((eb) => ({ value: eb("value", "+", 1) }))
    .where("name", "=", name)
    .returning("value")
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** Reserves `count` consecutive values at once (bulk writes); returns the first. */
export async function reserveValues(
  trx: Transaction<Database>,
  name: string,
  count: number,
): Promise<number> {
  await trx
    .insertInto("counters")
    .values({ name, value: 0 })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await trx
    .updateTable("counters")
    .set((eb) => ({ value: eb("value", "+", count) }))
    .where("name", "=", name)
    .returning("value")
    .executeTakeFirstOrThrow();
  return Number(row.value) - count + 1;
}
