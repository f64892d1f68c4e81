// The caller's portfolio (the hosted service's `/v2/league-policy-memberships/portfolio`): every
// live seat of the players they own, with the names a player card prints. A view of the
// memberships listing, so what a caller may see is decided in one place.
import type { Kysely } from "kysely";

import type { ResponseOf } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";
import { listMemberships } from "./memberships.ts";

export async function membershipPortfolio(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  limit: number,
): Promise<ResponseOf<"getMembershipPortfolio">> {
  const memberships = await listMemberships(db, identity, {
    mine: true,
    active_only: true,
    limit,
  });
  return memberships.flatMap((m) =>
    m.player === null
      ? []
      : [
          {
            membership_id: m.id,
            player_id: m.player.id,
            league_id: m.league.id,
            league_name: m.league.name,
            game_name: m.league.game.coworld_name ?? m.league.game.name,
            division_id: m.division.id,
            division_name: m.division.name,
            policy_version_id: m.policy_version.id,
            policy_label: `${m.policy_version.name}:v${m.policy_version.version}`,
            status: m.status,
            substatus: m.substatus,
            is_champion: m.is_champion,
          },
        ],
  );
}
