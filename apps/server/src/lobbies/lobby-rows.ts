// A lobby's rows: the answer's shape, its seats, and the lobby as its league's readers see it.
import type { Kysely } from "kysely";

import type { Lobby } from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { getVisibleLeagueRow } from "../leagues/leagues.ts";
import { parseJson } from "../shared/clock.ts";
import { ifNotFound, notFound } from "../shared/errors.ts";
import type { Database, LeaguesTable, LobbiesTable, LobbySeatsTable } from "../store/schema.ts";

export const HUMAN: readonly string[] = ["human", "human_open"];

export function view(row: LobbiesTable, seats: LobbySeatsTable[]): Lobby {
  return {
    id: row.id,
    league_id: row.league_id,
    creator_user_id: row.creator_user_id,
    variant_id: row.variant_id,
    game_config_overrides: parseJson<Record<string, unknown>>(row.game_config_overrides),
    num_players: row.num_players,
    status: row.status,
    seats: seats
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        position: s.position,
        kind: s.kind,
        user_id: s.user_id,
        player_id: s.player_id,
        policy_version_id: s.policy_version_id,
        claimed_at: s.claimed_at,
      })),
    experience_request_id: row.experience_request_id,
    play_session_id: row.play_session_id,
    episode_request_id: row.episode_request_id,
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
  };
}

export async function seatsOf(db: Kysely<Database>, lobbyId: string): Promise<LobbySeatsTable[]> {
  return db.selectFrom("lobby_seats").selectAll().where("lobby_id", "=", lobbyId).execute();
}

/** The lobby and its league if the caller may see the league; 404 otherwise. */
export async function visibleLobby(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<{ row: LobbiesTable; league: LeaguesTable }> {
  const row = await db.selectFrom("lobbies").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("lobby", id);
  const league = await ifNotFound(getVisibleLeagueRow(db, identity, row.league_id), () =>
    notFound("lobby", id),
  );
  return { row, league };
}
