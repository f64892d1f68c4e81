import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import { contestants } from "./contestants.ts";
import {
  applyOpenSkillEpisode,
  initialOpenSkillState,
  openSkillOrdinal,
  plackettLuce,
  ranksFromScores,
} from "./openskill.ts";

const settings = parseLadderSettings({ ladder: { ranking: "openskill" } }).openskill;

// Reference vectors: `rate()` of the openskill npm package 5.0.1 (Plackett–Luce, its defaults).
describe("Plackett–Luce against the openskill package", () => {
  it("two fresh players, the first wins", () => {
    const out = plackettLuce(
      [
        { mu: 25, sigma: 25 / 3, rank: 0 },
        { mu: 25, sigma: 25 / 3, rank: 1 },
      ],
      settings,
    );
    expect(out[0]?.mu).toBeCloseTo(27.635389493140497, 12);
    expect(out[0]?.sigma).toBeCloseTo(8.06590141354368, 12);
    expect(out[1]?.mu).toBeCloseTo(22.364610506859503, 12);
    expect(out[1]?.sigma).toBeCloseTo(8.06590141354368, 12);
  });

  it("four players of mixed ratings with a tie for first (scores 3, 10, 10, 1)", () => {
    const players = [
      { mu: 30, sigma: 5 },
      { mu: 25, sigma: 8 },
      { mu: 20, sigma: 3 },
      { mu: 27, sigma: 6 },
    ];
    const ranks = ranksFromScores([3, 10, 10, 1]);
    expect(ranks).toEqual([2, 0, 0, 3]);
    const out = plackettLuce(
      players.map((p, i) => ({ ...p, rank: ranks[i] ?? 0 })),
      settings,
    );
    const expected = [
      [30.202426319540525, 4.949902698806731],
      [26.193872912061007, 7.872935524571579],
      [20.21167622324032, 2.9992332787109492],
      [25.19070537232637, 5.9005865839792095],
    ];
    expected.forEach(([mu, sigma], i) => {
      expect(out[i]?.mu).toBeCloseTo(mu ?? 0, 12);
      expect(out[i]?.sigma).toBeCloseTo(sigma ?? 0, 12);
    });
  });

  it("three fresh players, two tied first", () => {
    const fresh = { mu: 25, sigma: 25 / 3 };
    const out = plackettLuce(
      [
        { ...fresh, rank: 0 },
        { ...fresh, rank: 0 },
        { ...fresh, rank: 2 },
      ],
      settings,
    );
    expect(out[0]?.mu).toBeCloseTo(25.717262170187357, 12);
    expect(out[1]?.mu).toBeCloseTo(25.717262170187357, 12);
    expect(out[2]?.mu).toBeCloseTo(23.565475659625285, 12);
    expect(out[2]?.sigma).toBeCloseTo(8.205243377397993, 12);
  });

  it("custom beta and tau", () => {
    const out = plackettLuce(
      [
        { mu: 1000, sigma: 100, rank: 0 },
        { mu: 1100, sigma: 50, rank: 1 },
      ],
      { beta: 200, tau: 1 },
    );
    expect(out[0]?.mu).toBeCloseTo(1019.1201898432895, 9);
    expect(out[0]?.sigma).toBeCloseTo(99.57146141342459, 9);
    expect(out[1]?.mu).toBeCloseTo(1095.2185186683264, 9);
    expect(out[1]?.sigma).toBeCloseTo(49.98293803478124, 9);
  });
});

describe("OpenSkill states", () => {
  it("shows mu − 3·sigma: 0 for a fresh player", () => {
    expect(openSkillOrdinal(initialOpenSkillState(settings))).toBeCloseTo(0, 12);
  });

  it("is symmetric: mirrored results give mirrored mu changes and equal sigmas", () => {
    const out = applyOpenSkillEpisode(
      new Map(),
      contestants([
        { subjectId: "a", score: 2 },
        { subjectId: "b", score: 1 },
      ]),
      settings,
    );
    const a = out.get("a");
    const b = out.get("b");
    expect((a?.mu ?? 0) - 25).toBeCloseTo(25 - (b?.mu ?? 0), 12);
    expect(a?.sigma).toBe(b?.sigma);
    expect(a?.episodes).toBe(1);
  });

  it("shrinks uncertainty as episodes settle", () => {
    const out = applyOpenSkillEpisode(
      new Map(),
      contestants([
        { subjectId: "a", score: 2 },
        { subjectId: "b", score: 1 },
      ]),
      settings,
    );
    expect(out.get("a")?.sigma).toBeLessThan(settings.sigma);
  });

  it("does not return an anchor", () => {
    const out = applyOpenSkillEpisode(
      new Map(),
      contestants([
        { subjectId: "a", score: 2 },
        { subjectId: "filler", score: 1, anchor: true },
      ]),
      settings,
    );
    expect([...out.keys()]).toEqual(["a"]);
  });
});
