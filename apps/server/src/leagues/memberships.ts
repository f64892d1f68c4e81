// Policy memberships (docs/api.md, "League play in short"): reads with the filters of the hosted
// service, and the two actions a player's owner (or the commissioner) takes — champion and retire.
import type { Kysely, Transaction } from "kysely";

import type { LeaguePolicyMembership, QueryOf } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { canSeeDivision, isCommissioner, visibleDivisionIds } from "../access/leagues.ts";
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, forbidden, notFound } from "../shared/errors.ts";
import type { Database, LeaguePolicyMembershipsTable, LeaguesTable } from "../store/schema.ts";
import { ACTIVE_STATUSES, makeChampion } from "./champions.ts";
import { ladderOrDefault } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { embeddedRefs, must, playerRefs, policyVersionRefs } from "./refs.ts";
import { refreshStandings } from "./standings-write.ts";

export async function membershipViews(
  db: Kysely<Database>,
  rows: readonly LeaguePolicyMembershipsTable[],
): Promise<LeaguePolicyMembership[]> {
  const { leagues, divisions, players, versions } = await embeddedRefs(db, rows);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    substatus: r.substatus,
    is_champion: r.is_champion === 1,
    start_time: r.start_time,
    end_time: r.end_time,
    league: must(leagues, r.league_id, "league"),
    division: must(divisions, r.division_id, "division"),
    policy_version: must(versions, r.policy_version_id, "policy version"),
    player: r.player_id ? (players.get(r.player_id) ?? null) : null,
    retired_reason: r.retired_reason,
    created_at: r.created_at,
  }));
}

type MembershipFilter = QueryOf<"listLeaguePolicyMemberships">;

export async function listMemberships(
  db: Kysely<Database>,
  identity: Identity,
  filter: MembershipFilter,
): Promise<LeaguePolicyMembership[]> {
  let q = db.selectFrom("league_policy_memberships").selectAll();
  if (filter.league_id) q = q.where("league_id", "=", filter.league_id);
  if (filter.division_id) q = q.where("division_id", "=", filter.division_id);
  if (filter.policy_version_id) q = q.where("policy_version_id", "=", filter.policy_version_id);
  if (filter.player_id) q = q.where("player_id", "=", filter.player_id);
  if (filter.active_only) q = q.where("status", "in", ACTIVE_STATUSES);
  if (filter.champions_only)
    q = q.where("is_champion", "=", 1).where("status", "in", ACTIVE_STATUSES);
  if (filter.mine) {
    if (!isAuthenticated(identity)) return [];
    q = q.where(
      "player_id",
      "in",
      db.selectFrom("players").select("id").where("owner_user_id", "=", identity.userId),
    );
  }
  if (!actsAsAdmin(identity)) q = q.where("division_id", "in", visibleDivisionIds(db, identity));
  const rows = await q
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .execute();
  return membershipViews(db, rows);
}

/**
 * The membership, its league and division, if the caller may act on it: the player's owner or the
 * commissioner.
 */
async function actionable(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  membershipId: string,
) {
  const membership = await db
    .selectFrom("league_policy_memberships")
    .selectAll()
    .where("id", "=", membershipId)
    .executeTakeFirst();
  const division = membership
    ? await db
        .selectFrom("divisions")
        .selectAll()
        .where("id", "=", membership.division_id)
        .executeTakeFirst()
    : undefined;
  const league = membership
    ? await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", membership.league_id)
        .executeTakeFirst()
    : undefined;
  if (!membership || !division || !league || !canSeeDivision(identity, league, division))
    throw notFound("league policy membership", membershipId);
  const player = membership.player_id
    ? await db
        .selectFrom("players")
        .select(["owner_user_id"])
        .where("id", "=", membership.player_id)
        .executeTakeFirst()
    : undefined;
  const ownsPlayer =
    player !== undefined &&
    player.owner_user_id === identity.userId &&
    (identity.kind !== "player" || identity.subjectId === membership.player_id);
  if (!ownsPlayer && !isCommissioner(identity, league))
    throw forbidden(
      "Only the player's owner or the league's commissioner changes this membership.",
    );
  return { membership, league };
}

async function viewOf(db: Kysely<Database>, membershipId: string): Promise<LeaguePolicyMembership> {
  const row = await db
    .selectFrom("league_policy_memberships")
    .selectAll()
    .where("id", "=", membershipId)
    .executeTakeFirstOrThrow();
  const [view] = await membershipViews(db, [row]);
  if (!view) throw new Error("unreachable: one row gives one view");
  return view;
}

/** Under the league's lock: the league (undefined when gone) and the membership as it is now. */
async function lockedMembership(
  trx: Transaction<Database>,
  leagueId: string,
  membershipId: string,
): Promise<{ league: LeaguesTable | undefined; current: LeaguePolicyMembershipsTable }> {
  const league = await lockLeague(trx, leagueId);
  const current = await trx
    .selectFrom("league_policy_memberships")
    .selectAll()
    .where("id", "=", membershipId)
    .executeTakeFirstOrThrow();
  return { league, current };
}

export async function setChampion(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  membershipId: string,
): Promise<LeaguePolicyMembership> {
  const { membership } = await actionable(db, identity, membershipId);
  const playerId = membership.player_id;
  if (playerId === null) throw conflict(`membership ${membershipId} has no player to champion`);
  await withEvents(db, bus, async (trx, emit) => {
    const { league, current } = await lockedMembership(trx, membership.league_id, membershipId);
    if (!league) throw notFound("league policy membership", membershipId);
    if (!(ACTIVE_STATUSES as readonly string[]).includes(current.status))
      throw conflict(
        `membership ${membershipId} is ${current.status}; only a competing membership can be champion`,
        "membership_not_active",
      );
    if (current.is_champion === 1) return;
    await makeChampion(trx, league.id, playerId, membershipId);
    const division = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", current.division_id)
      .executeTakeFirstOrThrow();
    const [players, versions] = await Promise.all([
      playerRefs(trx, [playerId]),
      policyVersionRefs(trx, [current.policy_version_id]),
    ]);
    const player = must(players, playerId, "player");
    const version = must(versions, current.policy_version_id, "policy version");
    emit({
      type: "champion_changed",
      refs: { league: league, division: division, player, policy_version: version },
      headline: `${player.name} now plays ${version.name} v${version.version}`,
      payload: { membership_id: membershipId },
    });
    await refreshStandings(trx, league, ladderOrDefault(league), division, null, emit);
  });
  return viewOf(db, membershipId);
}

export async function retireMembership(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  membershipId: string,
  reason: string | undefined,
): Promise<LeaguePolicyMembership> {
  const { membership } = await actionable(db, identity, membershipId);
  await withEvents(db, bus, async (trx, emit) => {
    const { league, current } = await lockedMembership(trx, membership.league_id, membershipId);
    if (!league || current.status === "retired") return;
    const now = nowIso();
    await trx
      .updateTable("league_policy_memberships")
      .set({
        status: "retired",
        substatus: "inactive",
        is_champion: 0,
        end_time: now,
        retired_reason: reason ?? null,
      })
      .where("id", "=", membershipId)
      .execute();
    const division = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", current.division_id)
      .executeTakeFirstOrThrow();
    const playerId = current.player_id;
    const [players, versions] = await Promise.all([
      playerRefs(trx, [playerId]),
      policyVersionRefs(trx, [current.policy_version_id]),
    ]);
    const player = playerId ? (players.get(playerId) ?? null) : null;
    const version = must(versions, current.policy_version_id, "policy version");
    const refs = { league: league, division: division, player, policy_version: version };
    emit({
      type: "membership_retired",
      refs,
      headline: `${player?.name ?? "A filler"} retired ${version.name} v${version.version}`,
      summary: reason ?? "",
      payload: { membership_id: membershipId },
    });
    if (playerId !== null) {
      const successor = await trx
        .selectFrom("league_policy_memberships")
        .selectAll()
        .where("league_id", "=", league.id)
        .where("player_id", "=", playerId)
        .where("status", "in", ACTIVE_STATUSES)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (successor && current.is_champion === 1) {
        await makeChampion(trx, league.id, playerId, successor.id);
        const next = must(
          await policyVersionRefs(trx, [successor.policy_version_id]),
          successor.policy_version_id,
          "policy version",
        );
        emit({
          type: "champion_changed",
          refs: { ...refs, policy_version: next },
          headline: `${player?.name ?? "A player"} now plays ${next.name} v${next.version}`,
          payload: { membership_id: successor.id },
        });
      }
      // A player with nothing left competing leaves the standings (the rating is kept for a
      // return).
      if (!successor)
        await trx
          .updateTable("ladder_ratings")
          .set({ active: 0, updated_at: now })
          .where("league_id", "=", league.id)
          .where("player_id", "=", playerId)
          .execute();
    }
    await refreshStandings(trx, league, ladderOrDefault(league), division, null, emit);
  });
  return viewOf(db, membershipId);
}
