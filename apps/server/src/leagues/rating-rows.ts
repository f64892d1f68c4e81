// A player's stored rating in a league (ladder_ratings, one row per league and player), written
// by a settling round and by a placement; the row outlives the player's leaving the standings.
import type { Transaction, Updateable } from "kysely";

import type { Database, LadderRatingsTable } from "../store/schema.ts";

type RatingKey = Pick<LadderRatingsTable, "league_id" | "player_id">;

/** `changes` on the player's row when they have one (`existing`), else a new row of `fresh`. */
export async function writeRating(
  trx: Transaction<Database>,
  key: RatingKey,
  existing: boolean,
  changes: Updateable<LadderRatingsTable>,
  fresh: Omit<LadderRatingsTable, keyof RatingKey>,
): Promise<void> {
  if (existing) {
    await trx
      .updateTable("ladder_ratings")
      .set(changes)
      .where("league_id", "=", key.league_id)
      .where("player_id", "=", key.player_id)
      .execute();
  } else {
    await trx
      .insertInto("ladder_ratings")
      .values({ ...key, ...fresh })
      .execute();
  }
}
