// Players' public profiles: display name, avatar and bio (set by the player's owner), the
// player's policy versions the caller may see, and its memberships in the leagues the caller can see. The player's
// events are the feed's (GET /v2/competition-events?player_id=…), not repeated here.
import type { Kysely } from "kysely";

import type { PlayerProfile, UpdatePlayerProfile } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { visibleDivisionIds, visibleLeagueIds } from "../access/leagues.ts";
import { visibleVersionIds } from "../access/versions.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { membershipViews } from "../leagues/memberships.ts";
import { nowIso } from "../shared/clock.ts";
import { forbidden, notFound } from "../shared/errors.ts";
import type { Database, PlayersTable } from "../store/schema.ts";

async function playerRow(db: Kysely<Database>, playerId: string): Promise<PlayersTable> {
  const row = await db
    .selectFrom("players")
    .selectAll()
    .where("id", "=", playerId)
    .executeTakeFirst();
  if (!row) throw notFound("Player", playerId);
  return row;
}

export async function getPlayerProfile(
  db: Kysely<Database>,
  identity: Identity,
  playerId: string,
): Promise<PlayerProfile> {
  const player = await playerRow(db, playerId);
  const profile = await db
    .selectFrom("player_profiles")
    .selectAll()
    .where("player_id", "=", playerId)
    .executeTakeFirst();
  const versions = await db
    .selectFrom("policy_versions as v")
    .innerJoin("policies as p", "p.id", "v.policy_id")
    .select(["p.id as policy_id", "p.name", "v.id", "v.version", "v.created_at"])
    .where("v.player_id", "=", playerId)
    // Only the versions the caller may see (access/versions.ts): a private version's id is not shown.
    .where("v.id", "in", visibleVersionIds(db, identity))
    .orderBy("p.name")
    .orderBy("v.version")
    .execute();
  const policies = new Map<string, PlayerProfile["policies"][number]>();
  for (const v of versions) {
    const policy = policies.get(v.policy_id) ?? { id: v.policy_id, name: v.name, versions: [] };
    policy.versions.push({ id: v.id, version: Number(v.version), created_at: v.created_at });
    policies.set(v.policy_id, policy);
  }
  let memberships = db
    .selectFrom("league_policy_memberships as m")
    .selectAll("m")
    .where("m.player_id", "=", playerId);
  if (!actsAsAdmin(identity))
    memberships = memberships
      .where("m.league_id", "in", visibleLeagueIds(db, identity))
      .where("m.division_id", "in", visibleDivisionIds(db, identity));
  const rows = await memberships.orderBy("m.start_time", "desc").orderBy("m.id").execute();
  return {
    id: player.id,
    name: player.name,
    display_name: profile?.display_name ?? player.name,
    avatar_url: profile?.avatar_url ?? null,
    bio: profile?.bio ?? null,
    created_at: player.created_at,
    policies: [...policies.values()],
    memberships: await membershipViews(db, rows),
  };
}

export async function updatePlayerProfile(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  playerId: string,
  body: UpdatePlayerProfile,
): Promise<PlayerProfile> {
  const player = await playerRow(db, playerId);
  const mayEdit =
    identity.kind !== "machine" &&
    (actsAsAdmin(identity) ||
      (player.owner_user_id === identity.userId &&
        (identity.kind !== "player" || identity.subjectId === playerId)));
  if (!mayEdit)
    throw forbidden(
      "Only the player's owner (or the player itself, or an admin) may change its profile.",
    );
  const current = await db
    .selectFrom("player_profiles")
    .selectAll()
    .where("player_id", "=", playerId)
    .executeTakeFirst();
  const next = {
    display_name:
      body.display_name === undefined ? (current?.display_name ?? null) : body.display_name,
    avatar_url: body.avatar_url === undefined ? (current?.avatar_url ?? null) : body.avatar_url,
    bio: body.bio === undefined ? (current?.bio ?? null) : body.bio,
    updated_at: nowIso(),
  };
  await db
    .insertInto("player_profiles")
    .values({ player_id: playerId, ...next })
    .onConflict((oc) => oc.column("player_id").doUpdateSet(next))
    .execute();
  return getPlayerProfile(db, identity, playerId);
}
