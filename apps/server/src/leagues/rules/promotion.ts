// Promotion and relegation between a league's competition divisions. Level 1 is the top:
// a smaller level is a higher division (the division ladder lists divisions by level, top
// first). Between each two adjacent divisions, the top `promote` of the lower one move up and
// the bottom `relegate` of the higher one move down, every `every_rounds` rounds.
import type { PromotionSettings } from "@gauntlet/core";

export interface DivisionStandings {
  readonly divisionId: string;
  readonly level: number;
  /** Best first: the order of the division's leaderboard rows. */
  readonly playerIds: readonly string[];
}

export interface PromotionMove {
  readonly playerId: string;
  readonly fromDivisionId: string;
  readonly toDivisionId: string;
  readonly kind: "promote" | "relegate";
}

/** True when promotion is on and the completed round count falls on its period. */
export function promotionDue(settings: PromotionSettings, roundsCompleted: number): boolean {
  if (settings.promote === 0 && settings.relegate === 0) return false;
  return roundsCompleted > 0 && roundsCompleted % settings.every_rounds === 0;
}

/** The moves after `roundsCompleted` rounds (none unless due): planMoves on the standings. */
export function planPromotions(
  divisions: readonly DivisionStandings[],
  settings: PromotionSettings,
  roundsCompleted: number,
): PromotionMove[] {
  if (!promotionDue(settings, roundsCompleted)) return [];
  return planMoves(divisions, settings);
}

/**
 * The moves the rule makes on these standings, whenever it runs (every `every_rounds`, or once
 * when a boundary's divisions are both settled). A player never moves twice: in a middle
 * division too small for both, the top places go up first and relegation takes the bottom of
 * those left. Moves come boundary by boundary from the top, promotions first.
 */
export function planMoves(
  divisions: readonly DivisionStandings[],
  settings: PromotionSettings,
): PromotionMove[] {
  if (settings.promote === 0 && settings.relegate === 0) return [];
  const levels = new Set(divisions.map((d) => d.level));
  if (levels.size !== divisions.length) throw new RangeError("two divisions share a level");
  const ladder = [...divisions].sort((a, b) => a.level - b.level);

  const promoted = new Map<string, readonly string[]>();
  ladder.forEach((division, i) => {
    promoted.set(division.divisionId, i === 0 ? [] : division.playerIds.slice(0, settings.promote));
  });

  const moves: PromotionMove[] = [];
  ladder.forEach((upper, i) => {
    const lower = ladder[i + 1];
    if (!lower) return;
    for (const playerId of promoted.get(lower.divisionId) ?? []) {
      moves.push({
        playerId,
        fromDivisionId: lower.divisionId,
        toDivisionId: upper.divisionId,
        kind: "promote",
      });
    }
    const goingUp = new Set(promoted.get(upper.divisionId) ?? []);
    const staying = upper.playerIds.filter((id) => !goingUp.has(id));
    const down =
      settings.relegate === 0 ? [] : staying.slice(Math.max(0, staying.length - settings.relegate));
    for (const playerId of down) {
      moves.push({
        playerId,
        fromDivisionId: upper.divisionId,
        toDivisionId: lower.divisionId,
        kind: "relegate",
      });
    }
  });
  return moves;
}
