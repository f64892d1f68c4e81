import { describe, expect, it } from "vitest";

import { createRng } from "../seating/prng.ts";
import { laplaceStrengths } from "./laplace.ts";
import { compileRecord, fitPlackettLuce } from "./plackett-luce.ts";
import type { KnownStrength } from "./strength-summary.ts";
import { randomRecord } from "./synthetic.ts";

const ids = ["a", "b", "c", "d", "e", "f"];
const truth: Record<string, number> = { a: 1.2, b: 0.6, c: 0.2, d: -0.2, e: -0.6, f: -1.2 };
const strength = (id: string) => truth[id] ?? 0;

function known(summary: ReturnType<typeof laplaceStrengths>, i: number): KnownStrength {
  const t = summary.targets[i];
  if (!t?.known) throw new Error(`target ${i} is unknown`);
  return t;
}

describe("the Plackett–Luce fit", () => {
  it.each([2, 4])("recovers known strengths from %i-seat episodes", (seats) => {
    const record = randomRecord(ids, strength, 4000, seats, createRng(`recover-${seats}`));
    const compiled = compileRecord(record);
    const theta = fitPlackettLuce(compiled);
    const mean = ids.reduce((s, id) => s + (theta[compiled.subjects.indexOf(id)] ?? 0), 0) / 6;
    for (const id of ids) {
      const fitted = (theta[compiled.subjects.indexOf(id)] ?? 0) - mean;
      expect(Math.abs(fitted - strength(id))).toBeLessThan(0.12);
    }
  });

  it("counts a draw as half a win each: two players who always draw are equal", () => {
    const at = new Date();
    const record = Array.from({ length: 10 }, () => ({
      at,
      participants: [
        { subjectId: "x", score: 1 },
        { subjectId: "y", score: 1 },
      ],
    }));
    const theta = fitPlackettLuce(compileRecord(record));
    expect(theta[0]).toBeCloseTo(theta[1] ?? Number.NaN, 9);
  });

  it("keeps a subject that won everything finite", () => {
    const at = new Date();
    const record = Array.from({ length: 5 }, () => ({
      at,
      participants: [
        { subjectId: "w", score: 1 },
        { subjectId: "l", score: 0 },
      ],
    }));
    const theta = fitPlackettLuce(compileRecord(record));
    expect(Number.isFinite(theta[0])).toBe(true);
    expect(theta[0] ?? 0).toBeGreaterThan(theta[1] ?? 0);
  });
});

describe("the Laplace intervals", () => {
  it("puts the true strengths inside the intervals and ranks the clear gaps as settled", () => {
    const record = randomRecord(ids, strength, 3000, 2, createRng("cover"));
    const summary = laplaceStrengths(record, ids, { seed: "cover" });
    ids.forEach((id, i) => {
      const t = known(summary, i);
      expect(t.low).toBeLessThan(strength(id));
      expect(t.high).toBeGreaterThan(strength(id));
    });
    expect(known(summary, 0).bestRank).toBe(1);
    expect(known(summary, 0).worstRank).toBe(1);
    expect(summary.pAbove(0, 1)).toBeGreaterThan(0.97);
    expect(summary.episodes).toBe(3000);
  });

  it("holds about 95% of the true strengths in its 95% intervals over many records", () => {
    const rng = createRng("calibration");
    let inside = 0;
    let total = 0;
    for (let r = 0; r < 60; r += 1) {
      const record = randomRecord(ids, strength, 40 + 10 * r, 2, rng);
      const summary = laplaceStrengths(record, ids, { seed: r, draws: 10 });
      ids.forEach((id, i) => {
        const t = known(summary, i);
        total += 1;
        if (t.low <= strength(id) && strength(id) <= t.high) inside += 1;
      });
    }
    expect(inside / total).toBeGreaterThan(0.92);
    expect(inside / total).toBeLessThan(0.98);
  });

  it("narrows the intervals as episodes grow", () => {
    const rng = createRng("narrow");
    const widths = [100, 400, 1600].map((count) => {
      const summary = laplaceStrengths(randomRecord(ids, strength, count, 2, rng), ids, {
        seed: count,
      });
      return ids.reduce((s, _, i) => s + known(summary, i).high - known(summary, i).low, 0);
    });
    expect(widths[1] ?? 0).toBeLessThan((widths[0] ?? 0) * 0.7);
    expect(widths[2] ?? 0).toBeLessThan((widths[1] ?? 0) * 0.7);
  });

  it("gives equal strengths overlapping intervals and an open order between them", () => {
    const equal = (id: string) => (id === "p" || id === "q" ? 0.3 : -0.3);
    const record = randomRecord(["p", "q", "r", "s"], equal, 1500, 2, createRng("equal"));
    const summary = laplaceStrengths(record, ["p", "q"], { seed: "equal" });
    const p = known(summary, 0);
    const q = known(summary, 1);
    expect(p.low).toBeLessThan(q.high);
    expect(q.low).toBeLessThan(p.high);
    expect(p.worstRank).toBe(2);
    expect(q.bestRank).toBe(1);
    expect(summary.pAbove(0, 1)).toBeGreaterThan(0.05);
    expect(summary.pAbove(0, 1)).toBeLessThan(0.95);
  });

  it("gives a twin entered twice the same interval up to noise", () => {
    const withTwin = [...ids, "a-twin"];
    const twinStrength = (id: string) => (id === "a-twin" ? strength("a") : strength(id));
    const record = randomRecord(withTwin, twinStrength, 4000, 2, createRng("twin"));
    const summary = laplaceStrengths(record, withTwin, { seed: "twin" });
    const a = known(summary, 0);
    const twin = known(summary, 6);
    expect(Math.abs(a.estimate - twin.estimate)).toBeLessThan(0.15);
    expect(Math.abs(a.high - a.low - (twin.high - twin.low))).toBeLessThan(0.1);
    expect(a.low).toBeLessThan(twin.high);
    expect(twin.low).toBeLessThan(a.high);
  });

  it("is deterministic for a seed, and reports an unrecorded target as unknown", () => {
    const record = randomRecord(ids, strength, 200, 3, createRng("seeded"));
    const one = laplaceStrengths(record, [...ids, "newcomer"], { seed: "s", draws: 50 });
    const two = laplaceStrengths(record, [...ids, "newcomer"], { seed: "s", draws: 50 });
    expect(one.targets).toEqual(two.targets);
    expect(one.targets[6]).toEqual({ known: false });
    expect(one.pAbove(5, 6)).toBeNull();
  });
});
