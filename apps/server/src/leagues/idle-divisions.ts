// Divisions ready for a new round: open (not archived) and with no unsettled round. The built-in
// scheduler and the commissioner driver both start rounds only there.
import type { Kysely } from "kysely";

import type { Database } from "../store/schema.ts";

/** Open divisions with no active round, as a query the caller narrows (`d` is the division). */
export function idleDivisions(db: Kysely<Database>) {
  return db
    .selectFrom("divisions as d")
    .where("d.archived_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("rounds as r")
            .select("r.id")
            .whereRef("r.division_id", "=", "d.id")
            .where("r.active", "=", 1),
        ),
      ),
    );
}
