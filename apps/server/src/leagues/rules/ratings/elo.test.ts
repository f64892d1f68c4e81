import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import { createRng } from "../seating/prng.ts";
import { contestants } from "./contestants.ts";
import {
  applyEloEpisode,
  closeEloRound,
  eloEpisodeDeltas,
  eloExpected,
  initialEloState,
  type EloState,
} from "./elo.ts";

const elo = parseLadderSettings({}).elo;

function state(rating: number): EloState {
  return { ...initialEloState(elo), rating };
}

/** Plays one round of the given episodes (subject → score) and closes it. */
function round(
  states: Map<string, EloState>,
  episodes: Record<string, number>[],
  settings = elo,
): Map<string, EloState> {
  const next = new Map(states);
  for (const scores of episodes) {
    const players = contestants(
      Object.entries(scores).map(([subjectId, score]) => ({ subjectId, score })),
    );
    for (const [id, s] of applyEloEpisode(next, players, settings)) next.set(id, s);
  }
  for (const [id, s] of next) next.set(id, closeEloRound(s));
  return next;
}

describe("Elo by hand", () => {
  it("gives the winner of two 1500 players +16 and the loser −16 at K 32", () => {
    const after = round(new Map(), [{ a: 1, b: 0 }]);
    expect(after.get("a")?.rating).toBe(1516);
    expect(after.get("b")?.rating).toBe(1484);
  });

  it("gives an underdog at 1400 who beats a 1600 player +24.31", () => {
    const after = round(
      new Map([
        ["fav", state(1600)],
        ["dog", state(1400)],
      ]),
      [{ fav: 0, dog: 1 }],
    );
    expect(eloExpected(1400, 1600)).toBeCloseTo(0.240253, 6);
    expect(after.get("dog")?.rating).toBeCloseTo(1424.3119, 3);
    expect(after.get("fav")?.rating).toBeCloseTo(1575.6881, 3);
  });

  it("leaves two equal players unchanged on a draw", () => {
    const after = round(new Map(), [{ a: 7, b: 7 }]);
    expect(after.get("a")?.rating).toBe(1500);
    expect(after.get("b")?.rating).toBe(1500);
  });

  it("scales K by N−1 in a 3-player episode: first +16, second 0, third −16", () => {
    expect(
      eloEpisodeDeltas(
        [
          { rating: 1500, score: 3 },
          { rating: 1500, score: 2 },
          { rating: 1500, score: 1 },
        ],
        32,
        null,
      ),
    ).toEqual([16, 0, -16]);
  });

  it("credits the score margin when margin_scale is set", () => {
    const settings = { ...elo, margin_scale: 1000 };
    const after = round(new Map(), [{ a: 500, b: 0 }], settings);
    expect(after.get("a")?.rating).toBe(1508);
    expect(after.get("b")?.rating).toBe(1492);
  });

  it("reproduces the upstream trajectory: 1543.75 / 1456.25 after three rounds of 8 wins (mean)", () => {
    let states = new Map<string, EloState>();
    const eight = Array.from({ length: 8 }, () => ({ puffer: 6.5, daveey: 1.2 }));
    for (let r = 0; r < 3; r += 1) states = round(states, eight);
    expect(states.get("puffer")?.rating).toBeCloseTo(1543.75, 1);
    expect(states.get("daveey")?.rating).toBeCloseTo(1456.25, 1);
    expect(states.get("puffer")?.episodes).toBe(24);
  });
});

describe("Elo round scoring", () => {
  it("moves no rating until the round closes", () => {
    const players = contestants([
      { subjectId: "a", score: 1 },
      { subjectId: "b", score: 0 },
    ]);
    const a = applyEloEpisode(new Map(), players, elo).get("a");
    expect(a?.rating).toBe(1500);
    expect(a?.pendingDelta).toBe(16);
    expect(a && closeEloRound(a).rating).toBe(1516);
  });

  it("mean: a win and a loss between equals cancel out", () => {
    const after = round(new Map(), [
      { a: 1, b: 0 },
      { a: 0, b: 1 },
    ]);
    expect(after.get("a")?.rating).toBe(1500);
  });

  it("ewma: the later episode weighs more (alpha 0.3: +16 then −16 gives +6.4)", () => {
    const settings = { ...elo, round_scoring: "ewma" as const };
    const after = round(
      new Map(),
      [
        { a: 1, b: 0 },
        { a: 0, b: 1 },
      ],
      settings,
    );
    expect(after.get("a")?.rating).toBeCloseTo(1506.4, 10);
    expect(after.get("b")?.rating).toBeCloseTo(1493.6, 10);
  });

  it("uses the ratings frozen at the round's start for every episode of the round", () => {
    const after = round(new Map(), [
      { a: 1, b: 0 },
      { a: 1, b: 0 },
      { a: 1, b: 0 },
    ]);
    expect(after.get("a")?.rating).toBe(1516);
  });
});

describe("Elo invariants", () => {
  it("conserves rating: the changes of any episode sum to zero", () => {
    const rng = createRng("elo-conservation");
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 2 + rng.int(7);
      const players = Array.from({ length: n }, () => ({
        rating: 1000 + rng.next() * 1000,
        score: rng.int(4),
      }));
      const deltas = eloEpisodeDeltas(players, 32, trial % 2 === 0 ? null : 10);
      expect(Math.abs(deltas.reduce((s, d) => s + d, 0))).toBeLessThan(1e-9);
    }
  });

  it("is symmetric: seat order does not matter, and mirrored results give mirrored changes", () => {
    const base = new Map([
      ["a", state(1550)],
      ["b", state(1480)],
      ["c", state(1500)],
    ]);
    const one = round(base, [{ a: 3, b: 1, c: 2 }]);
    const reordered = round(base, [{ c: 2, a: 3, b: 1 }]);
    expect([...reordered.entries()].sort()).toEqual([...one.entries()].sort());

    const equal = new Map([
      ["a", state(1500)],
      ["b", state(1500)],
    ]);
    const win = round(equal, [{ a: 1, b: 0 }]);
    const loss = round(equal, [{ a: 0, b: 1 }]);
    expect((win.get("a")?.rating ?? 0) - 1500).toBe(1500 - (loss.get("a")?.rating ?? 0));
  });

  it("credits a player in several seats once, with the mean of its seats", () => {
    const players = contestants([
      { subjectId: "a", score: 4 },
      { subjectId: "a", score: 0 },
      { subjectId: "b", score: 1 },
    ]);
    expect(players).toEqual([
      { subjectId: "a", score: 2, anchor: false },
      { subjectId: "b", score: 1, anchor: false },
    ]);
    const updated = applyEloEpisode(new Map(), players, elo);
    expect(updated.get("a")?.episodes).toBe(1);
    expect(updated.get("a")?.pendingDelta).toBe(16);
  });

  it("does not return or move an anchor, but rates others against it", () => {
    const players = contestants([
      { subjectId: "p", score: 1 },
      { subjectId: "filler", score: 0, anchor: true },
    ]);
    const updated = applyEloEpisode(new Map([["filler", state(1700)]]), players, elo);
    expect([...updated.keys()]).toEqual(["p"]);
    expect(updated.get("p")?.pendingDelta).toBeCloseTo(32 * (1 - eloExpected(1500, 1700)), 10);
  });

  it("changes nothing for an episode with one subject", () => {
    expect(
      applyEloEpisode(
        new Map(),
        contestants([
          { subjectId: "a", score: 1 },
          { subjectId: "a", score: 2 },
        ]),
        elo,
      ).size,
    ).toBe(0);
  });

  it("rejects a score that is not a finite number", () => {
    expect(() => contestants([{ subjectId: "a", score: Number.NaN }])).toThrow(/finite/);
  });
});
