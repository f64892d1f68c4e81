// Who may see what in league play: the rules of the HTTP reads (leagues.ts, divisions.ts),
// applied to rounds, events and standings, and to every WebSocket delivery.
import type { Kysely } from "kysely";

import { isAuthenticated, type Identity } from "../auth/identity.ts";
import { notFound } from "../shared/errors.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { canSeeLeague, isCommissioner } from "./leagues.ts";

/** A hidden division is seen by its league's commissioner (and admins) only. */
export function canSeeDivision(
  identity: Identity,
  league: LeaguesTable,
  division: DivisionsTable,
): boolean {
  return (
    canSeeLeague(identity, league) && (division.hidden === 0 || isCommissioner(identity, league))
  );
}

/** `owner` events: their user, the league's commissioner and admins. */
export function canSeeAudience(
  identity: Identity,
  audience: string,
  userId: string | null,
  league: LeaguesTable | undefined,
): boolean {
  if (audience !== "owner") return true;
  if (!isAuthenticated(identity)) return false;
  return (
    identity.isAdmin ||
    identity.userId === userId ||
    (league !== undefined && isCommissioner(identity, league))
  );
}

/** The division and its league if the caller may see them; 404 otherwise. */
export async function visibleDivision(
  db: Kysely<Database>,
  identity: Identity,
  divisionId: string,
): Promise<{ division: DivisionsTable; league: LeaguesTable }> {
  const division = await db
    .selectFrom("divisions")
    .selectAll()
    .where("id", "=", divisionId)
    .executeTakeFirst();
  const league = division
    ? await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", division.league_id)
        .executeTakeFirst()
    : undefined;
  if (!division || !league || !canSeeDivision(identity, league, division))
    throw notFound("division", divisionId);
  return { division, league };
}
