// Serialises league-play writes within one league (round start, settlement, placement, moves)
// across replicas: an UPDATE of the league row holds its row lock until commit on PostgreSQL,
// and SQLite has one writer anyway. Taken first in every such transaction.
import type { Transaction } from "kysely";

import type { Database, LeaguesTable } from "../store/schema.ts";

export async function lockLeague(
  trx: Transaction<Database>,
  leagueId: string,
): Promise<LeaguesTable | undefined> {
  await trx
    .updateTable("leagues")
    .set((eb) => ({ updated_at: eb.ref("updated_at") }))
    .where("id", "=", leagueId)
    .execute();
  return trx.selectFrom("leagues").selectAll().where("id", "=", leagueId).executeTakeFirst();
}
