import { describe, expect, it } from "vitest";

import { parseLadderSettings, type PromotionSettings } from "@gauntlet/core";

import { planMoves, planPromotions, promotionDue, type DivisionStandings } from "./promotion.ts";

const promo = (p: Partial<PromotionSettings>): PromotionSettings => ({
  ...parseLadderSettings({}).promotion,
  ...p,
});

const low: DivisionStandings = {
  divisionId: "div-low",
  level: 3,
  playerIds: ["l1", "l2", "l3", "l4"],
};
const top: DivisionStandings = {
  divisionId: "div-top",
  level: 1,
  playerIds: ["t1", "t2", "t3", "t4"],
};
const mid: DivisionStandings = {
  divisionId: "div-mid",
  level: 2,
  playerIds: ["m1", "m2", "m3", "m4"],
};
// Given out of level order on purpose: the level decides, not the position.
const divisions = [low, top, mid];

const summary = (moves: ReturnType<typeof planPromotions>) =>
  moves.map((m) => `${m.kind} ${m.playerId} ${m.fromDivisionId}→${m.toDivisionId}`);

describe("planPromotions", () => {
  it("is off by default", () => {
    expect(planPromotions(divisions, parseLadderSettings({}).promotion, 10)).toEqual([]);
  });

  it("promotes the top n of each lower division and relegates the bottom n of each higher one", () => {
    expect(summary(planPromotions(divisions, promo({ promote: 1, relegate: 2 }), 1))).toEqual([
      "promote m1 div-mid→div-top",
      "relegate t3 div-top→div-mid",
      "relegate t4 div-top→div-mid",
      "promote l1 div-low→div-mid",
      "relegate m3 div-mid→div-low",
      "relegate m4 div-mid→div-low",
    ]);
  });

  it("never promotes out of the top division nor relegates out of the bottom one", () => {
    const moves = planPromotions(divisions, promo({ promote: 1, relegate: 1 }), 1);
    expect(moves.some((m) => m.fromDivisionId === "div-top" && m.kind === "promote")).toBe(false);
    expect(moves.some((m) => m.fromDivisionId === "div-low" && m.kind === "relegate")).toBe(false);
  });

  it("moves nobody twice when a middle division is too small for both", () => {
    const small: DivisionStandings[] = [
      { divisionId: "top", level: 1, playerIds: ["a", "b"] },
      { divisionId: "mid", level: 2, playerIds: ["c", "d", "e"] },
      { divisionId: "low", level: 3, playerIds: ["f"] },
    ];
    const moves = planPromotions(small, promo({ promote: 2, relegate: 2 }), 1);
    expect(summary(moves)).toEqual([
      "promote c mid→top",
      "promote d mid→top",
      "relegate a top→mid",
      "relegate b top→mid",
      "promote f low→mid",
      "relegate e mid→low",
    ]);
    const ids = moves.map((m) => m.playerId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("respects every_rounds", () => {
    const settings = promo({ promote: 1, every_rounds: 3 });
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => promotionDue(settings, r))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
      true,
    ]);
    expect(planPromotions(divisions, settings, 2)).toEqual([]);
    expect(planPromotions(divisions, settings, 3)).toHaveLength(2);
  });

  it("does nothing with one division, and refuses two divisions on one level", () => {
    expect(planPromotions([low], promo({ promote: 1, relegate: 1 }), 1)).toEqual([]);
    expect(() => planPromotions([low, { ...top, level: 3 }], promo({ promote: 1 }), 1)).toThrow(
      /share a level/,
    );
  });
});

describe("planMoves", () => {
  it("moves on the standings whatever the round count (a settled boundary's move), and is off at 0 and 0", () => {
    const rules = promo({ promote: 1, relegate: 1, every_rounds: 1000 });
    expect(planPromotions([top, mid], rules, 7)).toEqual([]);
    expect(summary(planMoves([top, mid], rules))).toEqual([
      "promote m1 div-mid→div-top",
      "relegate t4 div-top→div-mid",
    ]);
    expect(planMoves([top, mid], promo({ promote: 0, relegate: 0 }))).toEqual([]);
  });
});
