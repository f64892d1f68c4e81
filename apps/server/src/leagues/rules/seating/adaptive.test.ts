import { describe, expect, it } from "vitest";

import { parseLadderSettings } from "@gauntlet/core";

import { LadderSimulation } from "../../../../testing/ladder-simulation.ts";
import { adaptive, pairWeights, type CertainEntrant } from "./adaptive.ts";
import { planRound } from "./index.ts";
import { createRng } from "./prng.ts";

const settings = parseLadderSettings({ ladder: { seating: "adaptive" } });

function entrant(id: string, over: Partial<CertainEntrant> = {}): CertainEntrant {
  return { playerId: id, policyVersionId: `v-${id}`, rating: 1500, episodes: 20, ...over };
}

describe("adaptive seating", () => {
  it("weighs overlapping intervals over clear ones, and the top over the bottom", () => {
    const w = pairWeights([
      entrant("a", { rating: 1650, interval: { low: 1600, high: 1700 } }),
      entrant("b", { rating: 1640, interval: { low: 1590, high: 1690 } }),
      entrant("c", { rating: 1350, interval: { low: 1300, high: 1400 } }),
      entrant("d", { rating: 1340, interval: { low: 1290, high: 1390 } }),
    ]);
    const [ab, ac, cd] = [w[0]?.[1] ?? 0, w[0]?.[2] ?? 0, w[2]?.[3] ?? 0];
    expect(ab).toBeGreaterThan(10 * ac);
    expect(ab).toBeGreaterThan(cd);
  });

  it("plays across a row whose form the fit contradicts: the boundaries around it cancel", () => {
    // x > y > z by the fit, each boundary alike. With z's form above y's, the pair x–y spans
    // z in the form's order, and the two boundaries it crosses (one each way) leave it unsure.
    const fit = {
      x: { low: 1640, high: 1760 },
      y: { low: 1560, high: 1680 },
      z: { low: 1480, high: 1600 },
    };
    const weights = (form: { x: number; y: number; z: number }) => {
      const w = pairWeights(
        (["x", "y", "z"] as const).map((id) =>
          entrant(id, { rating: form[id], interval: fit[id] }),
        ),
        Math.LN10 / 400,
      );
      return { xy: w[0]?.[1] ?? 0, yz: w[1]?.[2] ?? 0 };
    };
    const agree = weights({ x: 1700, y: 1620, z: 1540 });
    const contradicted = weights({ x: 1700, y: 1540, z: 1620 });
    expect(contradicted.xy / contradicted.yz).toBeGreaterThan(1.5 * (agree.xy / agree.yz));
  });

  it("keeps every pair possible: a tenth of the weight is spread over all of them", () => {
    const w = pairWeights(
      Array.from({ length: 6 }, (_, i) =>
        entrant(`p${i}`, {
          rating: 1810 - 100 * i,
          interval: { low: 1800 - 100 * i, high: 1820 - 100 * i },
        }),
      ),
      Math.LN10 / 400,
    );
    for (const [i, row] of w.entries())
      for (const [j, weight] of row.entries()) if (i !== j) expect(weight).toBeGreaterThan(0.05);
  });

  it("seats a newcomer and a starved entrant first, every round", () => {
    const players = [
      entrant("a", { interval: { low: 1600, high: 1700 }, episodes: 40 }),
      entrant("b", { interval: { low: 1590, high: 1690 }, episodes: 40 }),
      entrant("c", { interval: { low: 1300, high: 1400 }, episodes: 5 }),
      entrant("d", { interval: { low: 1290, high: 1390 }, episodes: 40 }),
      entrant("new", { interval: null, episodes: 0 }),
    ];
    for (let seed = 0; seed < 20; seed += 1) {
      const seated = adaptive(players, 2, 1, createRng(seed)).flatMap((p) => p.playerIds);
      expect(seated).toContain("new");
      expect(seated).toContain("c");
    }
  });

  it("starves nobody over many rounds: every entrant keeps at least half the mean episodes", () => {
    const sim = new LadderSimulation({
      settings,
      players: Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, strength: -0.3 * i })),
      seed: "starve",
      draws: 200,
    });
    for (let r = 0; r < 40; r += 1) {
      sim.round();
      if (r < 5) continue;
      const counts = sim.rows.map((row) => row.episodes_played);
      const mean = counts.reduce((s, c) => s + c, 0) / counts.length;
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(0.5 * mean - 2);
    }
  });

  it("stops spending once every row is settled, and plays again when a new entrant arrives", () => {
    const sim = new LadderSimulation({
      settings,
      players: [
        { id: "greedy", strength: 3 },
        { id: "wanderer", strength: 0 },
        { id: "random", strength: -3 },
      ],
      seed: "settle",
      draws: 200,
    });
    let quiet = null;
    for (let r = 0; r < 60 && !quiet; r += 1) {
      const { plan } = sim.round();
      if (plan.kind === "skip") quiet = plan;
    }
    expect(quiet).toMatchObject({ kind: "skip", reason: "settled" });
    expect(sim.rows.map((r) => r.player_id)).toEqual(["greedy", "wanderer", "random"]);
    const spent = sim.episodes;
    expect(sim.round().plan.kind).toBe("skip");
    expect(sim.episodes).toBe(spent);

    sim.add({ id: "newcomer", strength: 1.5 });
    const { plan } = sim.round();
    expect(plan.kind).toBe("run");
    if (plan.kind === "run") expect(plan.pools.flatMap((p) => p.playerIds)).toContain("newcomer");
  });

  it("goes quiet on a division with twins once the fit vouches they are even", () => {
    const sim = new LadderSimulation({
      settings,
      players: [
        { id: "greedy-a", strength: 2 },
        { id: "greedy-b", strength: 2 },
        { id: "random", strength: -2 },
      ],
      seed: "twins",
      draws: 200,
    });
    let quiet = null;
    for (let r = 0; r < 400 && !quiet; r += 1) {
      const { plan } = sim.round();
      if (plan.kind === "skip") quiet = plan;
    }
    expect(quiet).toMatchObject({ kind: "skip", reason: "settled" });
    // Settled either as a tie or (sequential looks find a difference now and then) apart.
    expect(sim.rows.map((r) => r.settled)).toEqual([true, true, true]);
    expect(sim.rows[2]?.player_id).toBe("random");
    expect(sim.round().plan.kind).toBe("skip");
  });

  it("fits a smaller cap with fewer tables instead of skipping the round", () => {
    const plan = planRound({
      entrants: Array.from({ length: 8 }, (_, i) => entrant(`p${i}`)),
      settings: { ...settings, max_episodes_per_round: 3 },
      seed: "cap",
      roundNumber: 1,
    });
    expect(plan).toMatchObject({ kind: "run", seating: "adaptive", episodeCount: 3 });
  });
});
