// Starting a lobby: its seats become the roster of one experience request of one episode, played
// on the runners like any evaluation; a claimed human seat plays its claimer's policy version.
import type { Kysely } from "kysely";

import type { Lobby } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { createExperienceRequest } from "../evaluations/experience-requests.ts";
import type { EventBus } from "../events/bus.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, InputError } from "../shared/errors.ts";
import type { Database, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";
import { managedOpenLobby, reopen, updateOpenLobby } from "./lobby-guards.ts";
import { getLobby } from "./lobby-reads.ts";
import { HUMAN, seatsOf } from "./lobby-rows.ts";
import { seatChampion } from "./seat-champions.ts";

async function rosterOf(db: Kysely<Database>, row: LobbiesTable, seats: LobbySeatsTable[]) {
  const roster: { slot: number; player: { policy_ref: string } | { random: true } }[] = [];
  const unclaimed = seats
    .filter((s) => HUMAN.includes(s.kind) && s.policy_version_id === null)
    .map((s) => s.position);
  if (unclaimed.length) {
    throw conflict(
      `seat(s) ${unclaimed.join(", ")} have no policy version to play them (claim with one, or launch the lobby to play live)`,
      "lobby_not_ready",
      { positions: unclaimed },
    );
  }
  let slot = 0;
  for (const seat of [...seats].sort((a, b) => a.position - b.position)) {
    if (seat.kind === "closed") continue;
    if (seat.kind === "random") roster.push({ slot: slot++, player: { random: true } });
    else if (seat.kind === "league_player") {
      const { champion } = await seatChampion(db, row.league_id, seat);
      roster.push({ slot: slot++, player: { policy_ref: champion.policy_version_id } });
    } else roster.push({ slot: slot++, player: { policy_ref: seat.policy_version_id ?? "" } });
  }
  return roster;
}

export async function startLobby(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Lobby> {
  const { row, league } = await managedOpenLobby(db, identity, id, "starts it");
  const seats = await seatsOf(db, id);
  const roster = await rosterOf(db, row, seats);
  // Claim the start first, so that two starts cannot both create an episode.
  await updateOpenLobby(db, id, { status: "running", started_at: nowIso() });
  try {
    const request = await createExperienceRequest(
      db,
      bus,
      identity,
      {
        target: { league_id: league.id, ...(row.variant_id ? { variant_id: row.variant_id } : {}) },
        roster,
        num_episodes: 1,
        game_config_overrides: parseJson<Record<string, unknown>>(row.game_config_overrides),
        notes: `lobby ${id}`,
      },
      undefined,
      // A claimed seat's version was put here by its owner when they claimed the seat.
      new Set(seats.flatMap((s) => (s.policy_version_id ? [s.policy_version_id] : []))),
      "play",
    );
    await db
      .updateTable("lobbies")
      .set({
        experience_request_id: request.id,
        episode_request_id: request.episodes[0]?.id ?? null,
      })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    // The episode could not be created (no random champion to draw, say): the lobby stays open.
    await reopen(db, id);
    if (error instanceof InputError)
      throw conflict(`the lobby cannot start: ${error.message}`, "lobby_not_ready");
    throw error;
  }
  return getLobby(db, identity, id);
}
