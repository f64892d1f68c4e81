// The policies that play a lobby's policy seats: a league player's current champion, or one drawn
// from the champions of the league's top competition division.
import type { Kysely } from "kysely";

import { divisionChampions } from "../evaluations/roster.ts";
import { currentChampion } from "../leagues/champions.ts";
import { topCompetitionDivision } from "../leagues/divisions.ts";
import { conflict } from "../shared/errors.ts";
import type { Database, LeaguesTable, LobbySeatsTable } from "../store/schema.ts";

/** The player of a league_player seat and its current champion; 409 if it has none. */
export async function seatChampion(db: Kysely<Database>, leagueId: string, seat: LobbySeatsTable) {
  const playerId = seat.player_id ?? "";
  const champion = await db
    .transaction()
    .execute((trx) => currentChampion(trx, leagueId, playerId));
  if (!champion)
    throw conflict(
      `player ${playerId} (seat ${seat.position}) has no champion in the league`,
      "lobby_not_ready",
      { positions: [seat.position] },
    );
  return { playerId, champion };
}

/** The league's top competition division, whose champions `random` seats are drawn from. */
export async function drawPool(db: Kysely<Database>, league: LeaguesTable) {
  const division = await topCompetitionDivision(db, league.id);
  return division ? divisionChampions(db, league, division) : [];
}
