// A player seats one champion per round: at most one competing membership per player and
// league has is_champion = 1.
import type { Kysely, Transaction } from "kysely";

import type { Database, LeaguePolicyMembershipsTable } from "../store/schema.ts";

export const ACTIVE_STATUSES = ["qualifying", "competing"] as const;

export async function currentChampion(
  trx: Transaction<Database>,
  leagueId: string,
  playerId: string,
): Promise<LeaguePolicyMembershipsTable | undefined> {
  return trx
    .selectFrom("league_policy_memberships")
    .selectAll()
    .where("league_id", "=", leagueId)
    .where("player_id", "=", playerId)
    .where("is_champion", "=", 1)
    .where("status", "in", ACTIVE_STATUSES)
    .executeTakeFirst();
}

/** Makes the membership its player's only champion in the league. */
export async function makeChampion(
  trx: Transaction<Database>,
  leagueId: string,
  playerId: string,
  membershipId: string,
): Promise<void> {
  await trx
    .updateTable("league_policy_memberships")
    .set({ is_champion: 0 })
    .where("league_id", "=", leagueId)
    .where("player_id", "=", playerId)
    .where("id", "!=", membershipId)
    .where("is_champion", "=", 1)
    .execute();
  await trx
    .updateTable("league_policy_memberships")
    .set({ is_champion: 1 })
    .where("id", "=", membershipId)
    .execute();
}

/** Moves a player's active memberships in a league to another division (placement, promotion). */
export async function moveActiveMemberships(
  trx: Transaction<Database>,
  leagueId: string,
  playerId: string,
  divisionId: string,
): Promise<void> {
  await trx
    .updateTable("league_policy_memberships")
    .set({ division_id: divisionId })
    .where("league_id", "=", leagueId)
    .where("player_id", "=", playerId)
    .where("status", "in", ACTIVE_STATUSES)
    .execute();
}

/** The players a round seats in a division: competing, active champions, with their rating state (null before their first round). */
export async function competingChampions(db: Kysely<Database>, divisionId: string) {
  return db
    .selectFrom("league_policy_memberships as m")
    .innerJoin("players as p", "p.id", "m.player_id")
    .leftJoin("ladder_ratings as lr", (join) =>
      join.onRef("lr.league_id", "=", "m.league_id").onRef("lr.player_id", "=", "m.player_id"),
    )
    .select(["m.player_id", "m.policy_version_id", "p.name as player_name", "lr.state"])
    .where("m.division_id", "=", divisionId)
    .where("m.status", "=", "competing")
    .where("m.substatus", "=", "active")
    .where("m.is_champion", "=", 1)
    .execute();
}
