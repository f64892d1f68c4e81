// Promotion and relegation between a division and the one below it (league/promotion decides
// who moves). A boundary is decided by the upper division's rounds: after every `every_rounds`
// of them the built-in commissioner's round_complete moves the top of the lower division up and
// the bottom of the upper one down (commissioner/builtin/ladder-round-end.ts); and once more here
// when both divisions are settled (settled-promotion.ts), since a settled upper division plays no
// rounds to count. A player's memberships and rating move with the player.
import type { Transaction } from "kysely";

import type { LadderSettings } from "@gauntlet/core";

import type { Emit } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { moveActiveMemberships } from "./champions.ts";
import { must, playerRefs } from "./refs.ts";
import { planMoves } from "./rules/index.ts";
import { computeStandings } from "./standings-write.ts";

/** Completed rounds of the division: the count the promotion period is measured in. */
export async function completedRounds(
  trx: Transaction<Database>,
  divisionId: string,
): Promise<number> {
  const done = await trx
    .selectFrom("rounds")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("division_id", "=", divisionId)
    .where("status", "=", "completed")
    .executeTakeFirstOrThrow();
  return Number(done.n);
}

/**
 * Runs the promotion rule now across the boundary between `upper` and the `lower` division
 * right below it, on their current standings. `rule` says why it runs (the round count came
 * round, or both divisions settled), in the events' payload. Returns the divisions whose
 * members changed.
 */
export async function moveAcross(
  trx: Transaction<Database>,
  emit: Emit,
  league: LeaguesTable,
  settings: LadderSettings,
  upper: DivisionsTable,
  lower: DivisionsTable,
  rule: "rounds" | "settled",
): Promise<DivisionsTable[]> {
  const rules = settings.promotion;
  const roundsCompleted = await completedRounds(trx, upper.id);
  const [upperRows, lowerRows] = [
    await computeStandings(trx, settings, upper),
    await computeStandings(trx, settings, lower),
  ];
  const moves = planMoves(
    [
      {
        divisionId: upper.id,
        level: upper.level,
        playerIds: upperRows.rows.map((r) => r.player_id),
      },
      {
        divisionId: lower.id,
        level: lower.level,
        playerIds: lowerRows.rows.map((r) => r.player_id),
      },
    ],
    rules,
  );
  if (moves.length === 0) return [];
  const now = nowIso();
  for (const move of moves) {
    await trx
      .updateTable("ladder_ratings")
      .set({ division_id: move.toDivisionId, updated_at: now })
      .where("league_id", "=", league.id)
      .where("player_id", "=", move.playerId)
      .execute();
    await moveActiveMemberships(trx, league.id, move.playerId, move.toDivisionId);
  }
  await announceMoves(trx, emit, league, [upper, lower], moves, {
    rule,
    afterRounds: roundsCompleted,
  });
  return [upper, lower];
}

/**
 * The feed's word for each player that moved between divisions: promoted when it went to a
 * higher division (a smaller level), relegated when to a lower one. `rule` says what moved it.
 */
export async function announceMoves(
  trx: Transaction<Database>,
  emit: Emit,
  league: LeaguesTable,
  divisions: readonly DivisionsTable[],
  moves: readonly { playerId: string; fromDivisionId: string; toDivisionId: string }[],
  why: { rule: "rounds" | "settled" | "commissioner"; afterRounds: number },
): Promise<void> {
  if (moves.length === 0) return;
  const byId = new Map(divisions.map((d) => [d.id, d]));
  const players = await playerRefs(
    trx,
    moves.map((m) => m.playerId),
  );
  for (const move of moves) {
    const from = must(byId, move.fromDivisionId, "division");
    const to = must(byId, move.toDivisionId, "division");
    if (from.level === to.level) continue;
    const player = must(players, move.playerId, "player");
    const promoted = to.level < from.level;
    emit({
      type: promoted ? "player_promoted" : "player_relegated",
      refs: { league: league, division: to, player },
      headline: `${player.name} ${promoted ? "promoted" : "relegated"} from ${from.name} to ${to.name}${why.rule === "settled" ? " (both divisions settled)" : ""}`,
      payload: {
        from_division_id: from.id,
        to_division_id: to.id,
        after_rounds: why.afterRounds,
        rule: why.rule,
      },
    });
  }
}
