// A division read with the visibility rule of access/leagues.ts: the division and its league,
// or 404.
import type { Kysely } from "kysely";

import { canSeeDivision } from "../access/leagues.ts";
import type { Identity } from "../auth/identity.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { divisionWithLeague } from "./divisions.ts";

/** The division and its league if the caller may see them; 404 otherwise. */
export async function visibleDivision(
  db: Kysely<Database>,
  identity: Identity,
  divisionId: string,
): Promise<{ division: DivisionsTable; league: LeaguesTable }> {
  const found = await divisionWithLeague(db, divisionId);
  if (!found || !canSeeDivision(identity, found.league, found.division))
    throw notFound("division", divisionId);
  return found;
}
