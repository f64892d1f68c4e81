// Launching a lobby live: a hosted game (a play session) in which people play their human seats
// from the browser and champions play the others.
import { randomInt } from "node:crypto";

import type { Kysely } from "kysely";

import { CoworldManifest, type Lobby } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { isBundleless } from "../evaluations/roster.ts";
import { gameCoworld } from "../games/games.ts";
import { ladderOf } from "../leagues/ladder.ts";
import { openSession, personLabel, type SeatPlan } from "../play/sessions.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict } from "../shared/errors.ts";
import type { Database, LeaguesTable, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";
import { managedOpenLobby, reopen, updateOpenLobby } from "./lobby-guards.ts";
import { getLobby } from "./lobby-reads.ts";
import { HUMAN, seatsOf } from "./lobby-rows.ts";
import { drawPool, seatChampion } from "./seat-champions.ts";

/** The live game's slots: people in human seats, champions in the others, closed seats left out. */
async function livePlan(
  db: Kysely<Database>,
  row: LobbiesTable,
  league: LeaguesTable,
  seats: LobbySeatsTable[],
): Promise<SeatPlan[]> {
  const plan: SeatPlan[] = [];
  let pool: Awaited<ReturnType<typeof drawPool>> | null = null;
  const userIds = seats.flatMap((s) => (s.user_id ? [s.user_id] : []));
  const users = userIds.length
    ? await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute()
    : [];
  const names = new Map(users.map((u) => [u.id, personLabel(u.email)]));
  for (const seat of [...seats].sort((a, b) => a.position - b.position)) {
    if (seat.kind === "closed") continue;
    if (HUMAN.includes(seat.kind)) {
      plan.push({
        kind: "human",
        label: seat.user_id ? (names.get(seat.user_id) ?? "reserved") : "open",
        userId: seat.user_id,
        joined: false,
      });
    } else if (seat.kind === "league_player") {
      const { playerId, champion } = await seatChampion(db, row.league_id, seat);
      const player = await db
        .selectFrom("players")
        .select("name")
        .where("id", "=", playerId)
        .executeTakeFirst();
      plan.push({
        kind: "policy",
        label: player?.name ?? playerId,
        policyVersionId: champion.policy_version_id,
        playerId,
      });
    } else {
      pool ??= await drawPool(db, league);
      const drawn = pool.length ? pool[randomInt(pool.length)] : undefined;
      if (!drawn)
        throw conflict(
          `league ${league.id} has no competing champion to draw for seat ${seat.position}`,
          "lobby_not_ready",
          { positions: [seat.position] },
        );
      plan.push({
        kind: "policy",
        label: drawn.displayName,
        policyVersionId: drawn.policyVersionId,
        playerId: drawn.playerId,
      });
    }
  }
  return plan;
}

export async function launchLobby(
  db: Kysely<Database>,
  box: SecretBox,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "launches it");
  const seats = await seatsOf(db, id);
  const plan = await livePlan(db, row, league, seats);
  // A live game's policies run as processes: a version with no bundle (an image) plays only on
  // docker, which a started lobby's episode gives it.
  for (const [slot, seat] of plan.entries())
    if (seat.kind === "policy" && (await isBundleless(db, seat.policyVersionId)))
      throw conflict(
        `slot ${slot}'s policy version ${seat.policyVersionId} has no bundle: it runs only on docker, so the lobby can be started, not launched live`,
        "lobby_not_ready",
        { slots: [slot] },
      );
  const coworld = await gameCoworld(db, league.game_id);
  if (!coworld)
    throw conflict(`league ${league.id}'s game has no coworld to play`, "lobby_not_ready");
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const ladder = ladderOf(league);
  const variantId = row.variant_id ?? (ladder.ok ? (ladder.settings.variant_id ?? null) : null);
  const variant =
    variantId === null ? manifest.variants[0] : manifest.variants.find((v) => v.id === variantId);
  if (!variant)
    throw conflict(
      `${manifest.game.name} has no variant ${JSON.stringify(variantId)}`,
      "lobby_not_ready",
    );
  // Claim the launch first, so that two launches cannot both open a game.
  await updateOpenLobby(db, id, { status: "running", started_at: nowIso() });
  try {
    const { state } = await openSession(db, box, {
      creatorUserId: identity.userId,
      coworld,
      kind: "lobby",
      variantId: variant.id,
      gameConfig: {
        ...variant.game_config,
        ...(ladder.ok ? ladder.settings.game_config : {}),
        ...parseJson<Record<string, unknown>>(row.game_config_overrides),
      },
      allowSpectators: true,
      lobbyId: id,
      seats: plan,
    });
    await db
      .updateTable("lobbies")
      .set({ play_session_id: state.row.id })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    await reopen(db, id);
    throw error;
  }
  return getLobby(db, identity, id);
}
