// Issue 30 benchmark: how many episodes each seating needs before the published standings are
// right, and whether their 95% intervals hold 95% of the true strengths. Divisions of 8, 16 and
// 32 synthetic entrants with known strengths (Bradley–Terry, consecutive entrants GAP Elo apart,
// outcome noise, and a non-transitive trio in the middle), played through the real round
// planning, rating and standings code (testing/ladder-simulation.ts), no HTTP. Each
// configuration runs over SEEDS seeds; a run stops when the published order has Kendall τ ≥ 0.9
// against the truth and the true #1 is ranked first and clear of the true #2, or at CAP_ROUNDS
// round robins' worth of episodes. "Clear" is read on the difference: the 95% interval of #1's
// strength minus #2's, from the fit's full covariance, lies above zero (each row's own interval
// also carries the uncertainty of the table's mean and of every shared opponent, so two rows'
// intervals part only long after the fit is sure of their order); the last line compares mean episodes (a
// capped run counted at the cap). "fit order" applies the same test to the rows ordered by their
// intervals' midpoints (the fit's own order) instead of the published ranking value.
// "coverage" is the share of rows, over every round of every run, whose interval holds the
// strength the fit estimates (`estimand`): the true strength for a transitive entrant, and for the
// trio, which has none a Bradley–Terry fit could converge to whatever it is shown, the strength
// that best fits the trio's true win chances in the games actually played. Measured against the
// trio's stated (equal) strength instead, a plan that plays a–b and b–c far more than c–a was
// counted as missing a target the record never pointed at. "outside trio" is the coverage of the
// rows outside it.
//
//   node bench/ranking/run.ts [--seeds N] [--sizes 8,16,32] [--draws N] [--modes a,b]
import { parseLadderSettings, type LadderSettings, type LeaderboardRow } from "@gauntlet/core";
import {
  drawEpisode,
  LadderSimulation,
  laplaceStrengths,
  projectedStrengths,
  type Rng,
  type SettledEpisode,
  type SimulatedPlayer,
} from "@gauntlet/server/bench";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const SEEDS = Number(arg("seeds", "50"));
const SIZES = arg("sizes", "8,16,32").split(",").map(Number);
const DRAWS = Number(arg("draws", "200"));
/** Elo between consecutive entrants. */
const GAP = 60;
/** Share of episodes whose result is a coin flip, whatever the strengths. */
const NOISE = 0;
/** In the trio each beats the next this often (a beats b beats c beats a). */
const CYCLE = 0.7;
/** A run that has not converged after this many round-robin rounds' worth of episodes stops. */
const CAP_ROUNDS = 30;
const MODES = arg("modes", "round_robin,swiss_neighbor,adaptive")
  .split(",")
  .map((m) => parseLadderSettings({ ladder: { seating: m } }).seating);
const NATS_PER_ELO = Math.LN10 / 400;

interface Truth {
  readonly players: SimulatedPlayer[];
  /** True Elo by id (the trio share one). */
  readonly elo: Map<string, number>;
  readonly trio: readonly string[];
}

function truth(size: number): Truth {
  const players: SimulatedPlayer[] = [];
  const elo = new Map<string, number>();
  const middle = Math.floor(size / 2);
  for (let i = 0; i < size; i += 1) {
    // The trio: three entrants of equal strength in the middle of the table.
    const place = i < middle ? i : i <= middle + 2 ? middle : i - 2;
    const rating = 1500 - GAP * place;
    const id = `e${String(i).padStart(2, "0")}`;
    players.push({ id, strength: rating * NATS_PER_ELO });
    elo.set(id, rating);
  }
  const trio = players.slice(middle, middle + 3).map((p) => p.id);
  return { players, elo, trio };
}

function outcome(t: Truth) {
  const strength = new Map(t.players.map((p) => [p.id, p.strength]));
  const cycleWinner = (a: string, b: string): string | null => {
    const ia = t.trio.indexOf(a);
    const ib = t.trio.indexOf(b);
    if (ia < 0 || ib < 0) return null;
    return (ia + 1) % 3 === ib ? a : b;
  };
  return (seated: readonly string[], rng: Rng) => {
    const [a, b] = seated;
    if (seated.length === 2 && a !== undefined && b !== undefined) {
      const favourite = cycleWinner(a, b);
      if (rng.next() < NOISE || favourite !== null) {
        const p = favourite === null ? 0.5 : CYCLE;
        const aWins =
          favourite === a ? rng.next() < p : favourite === b ? rng.next() >= p : rng.next() < p;
        return {
          at: new Date(0),
          participants: [
            { subjectId: a, score: aWins ? 1 : 0 },
            { subjectId: b, score: aWins ? 0 : 1 },
          ],
        };
      }
    }
    return drawEpisode(seated, (id) => strength.get(id) ?? 0, rng);
  };
}

/** Kendall τ between the published order and the truth, over pairs the truth orders. */
function kendallTau(rows: readonly LeaderboardRow[], elo: Map<string, number>): number {
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < rows.length; i += 1)
    for (let j = i + 1; j < rows.length; j += 1) {
      const d = (elo.get(rows[i]?.player_id ?? "") ?? 0) - (elo.get(rows[j]?.player_id ?? "") ?? 0);
      if (d > 0) concordant += 1;
      else if (d < 0) discordant += 1;
    }
  return (concordant - discordant) / Math.max(1, concordant + discordant);
}

/** The rows in the fit's own order: by the middle of their intervals. */
function byFit(rows: readonly LeaderboardRow[]): LeaderboardRow[] {
  const mid = (r: LeaderboardRow) =>
    r.score_interval ? (r.score_interval.low + r.score_interval.high) / 2 : -Infinity;
  return [...rows].sort((a, b) => mid(b) - mid(a));
}

/** The chance the fit gives the true #1 of being stronger than the true #2. */
function pFirstAboveSecond(record: readonly SettledEpisode[], t: Truth): number {
  const [first, second] = t.players;
  if (!first || !second) return 0;
  return laplaceStrengths(record, [first.id, second.id], { draws: 1 }).pAbove(0, 1) ?? 0;
}

/** The test a run stops on; `pFirst` is asked last (a fit of the whole record) and only then. */
function converged(rows: readonly LeaderboardRow[], t: Truth, pFirst: () => number): boolean {
  const [first] = t.players;
  return kendallTau(rows, t.elo) >= 0.9 && rows[0]?.player_id === first?.id && pFirst() >= 0.975;
}

/** The chance a round's record gives the true #1 over the true #2, fitted at most once. */
function oncePerRound(record: readonly SettledEpisode[], t: Truth): () => number {
  let p: number | undefined;
  return () => (p ??= pFirstAboveSecond(record, t));
}

/** The true chance that a beats b in a two-seat game. */
function winChance(t: Truth, a: string, b: string): number {
  const ia = t.trio.indexOf(a);
  const ib = t.trio.indexOf(b);
  if (ia >= 0 && ib >= 0) return (ia + 1) % 3 === ib ? CYCLE : 1 - CYCLE;
  const d = ((t.elo.get(a) ?? 0) - (t.elo.get(b) ?? 0)) * NATS_PER_ELO;
  return 1 / (1 + Math.exp(-d));
}

/**
 * The strengths the fit estimates (Elo by id): those that best fit the TRUE win chances of the
 * games actually played (confidence/projection.ts). For a transitive field these are the true
 * strengths, whatever was played; the trio has no Bradley–Terry strength of its own, and this is
 * the one its games define (equal when the trio met evenly; a > b > c when swiss_neighbor plays
 * a–b and b–c far more than c–a).
 */
function estimand(t: Truth, record: readonly SettledEpisode[]): Map<string, number> {
  const games = record.flatMap((e) => {
    const [x, y] = e.participants;
    return e.participants.length === 2 && x && y
      ? [{ a: x.subjectId, b: y.subjectId, pA: winChance(t, x.subjectId, y.subjectId) }]
      : [];
  });
  const stated = new Map(t.players.map((p) => [p.id, p.strength]));
  const fitted = projectedStrengths(games, stated);
  return new Map([...fitted].map(([id, theta]) => [id, theta / NATS_PER_ELO]));
}

/** Counts the rows whose interval holds the strength the fit estimates (both centred: the intervals on their midpoints' mean). */
function coverage(
  rows: readonly LeaderboardRow[],
  t: Truth,
  target: Map<string, number>,
): { inside: number; total: number; outsideTrio: number; totalOutsideTrio: number } {
  const known = rows.filter((r) => r.score_interval);
  if (known.length < rows.length)
    return { inside: 0, total: 0, outsideTrio: 0, totalOutsideTrio: 0 };
  const mid = (r: LeaderboardRow) =>
    ((r.score_interval?.low ?? 0) + (r.score_interval?.high ?? 0)) / 2;
  const meanScore = known.reduce((s, r) => s + mid(r), 0) / known.length;
  const meanTrue = known.reduce((s, r) => s + (target.get(r.player_id) ?? 0), 0) / known.length;
  let inside = 0;
  let outsideTrio = 0;
  for (const r of known) {
    const truth = (target.get(r.player_id) ?? 0) - meanTrue;
    const low = (r.score_interval?.low ?? 0) - meanScore;
    const high = (r.score_interval?.high ?? 0) - meanScore;
    const held = low <= truth && truth <= high;
    if (held) inside += 1;
    if (held && !t.trio.includes(r.player_id)) outsideTrio += 1;
  }
  return {
    inside,
    total: known.length,
    outsideTrio,
    totalOutsideTrio: known.length - known.filter((r) => t.trio.includes(r.player_id)).length,
  };
}

interface Run {
  episodes: number;
  converged: boolean;
  /** Episodes until the fit's own order (interval midpoints) met the same test; null if never. */
  fitEpisodes: number | null;
  inside: number;
  total: number;
  /** The same, over the rows outside the non-transitive trio. */
  outsideTrio: number;
  totalOutsideTrio: number;
}

function runOnce(size: number, mode: LadderSettings["seating"], seed: number): Run {
  const t = truth(size);
  const settings = parseLadderSettings({ ladder: { seating: mode, players_per_episode: 2 } });
  const sim = new LadderSimulation({
    settings,
    players: t.players,
    seed: `bench-${size}-${mode}-${seed}`,
    outcome: outcome(t),
    draws: DRAWS,
  });
  const cap = CAP_ROUNDS * ((size * (size - 1)) / 2);
  let inside = 0;
  let total = 0;
  let outsideTrio = 0;
  let totalOutsideTrio = 0;
  let fitEpisodes: number | null = null;
  while (sim.episodes < cap) {
    const { plan, rows } = sim.round();
    if (plan.kind === "skip") break;
    const c = coverage(rows, t, estimand(t, sim.record));
    inside += c.inside;
    total += c.total;
    outsideTrio += c.outsideTrio;
    totalOutsideTrio += c.totalOutsideTrio;
    const pFirst = oncePerRound(sim.record, t);
    if (fitEpisodes === null && converged(byFit(rows), t, pFirst)) fitEpisodes = sim.episodes;
    if (converged(rows, t, pFirst))
      return {
        episodes: sim.episodes,
        converged: true,
        fitEpisodes,
        inside,
        total,
        outsideTrio,
        totalOutsideTrio,
      };
  }
  return {
    episodes: sim.episodes,
    converged: false,
    fitEpisodes,
    inside,
    total,
    outsideTrio,
    totalOutsideTrio,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const started = performance.now();
console.log(
  `ranking: ${SEEDS} seeds; ${GAP} Elo between neighbours, ${NOISE * 100}% coin-flip results, a ${CYCLE * 100}% non-transitive trio; Laplace intervals, rank ranges from ${DRAWS} draws`,
);
console.log(
  "entrants  seating          median episodes  mean episodes  converged  coverage  outside trio  fit order: mean episodes  converged",
);
const medians = new Map<string, number>();
let allInside = 0;
let allTotal = 0;
for (const size of SIZES) {
  for (const mode of MODES) {
    const runs: Run[] = [];
    for (let seed = 0; seed < SEEDS; seed += 1) runs.push(runOnce(size, mode, seed));
    const episodes = runs.map((r) => r.episodes);
    const inside = runs.reduce((s, r) => s + r.inside, 0);
    const total = runs.reduce((s, r) => s + r.total, 0);
    allInside += inside;
    allTotal += total;
    // Runs that never converge count at the cap, so a mean is a floor on the true cost.
    medians.set(`${size}:${mode}`, episodes.reduce((s, e) => s + e, 0) / runs.length);
    console.log(
      [
        String(size).padEnd(8),
        mode.padEnd(16),
        String(median(episodes)).padStart(15),
        String(Math.round(episodes.reduce((s, e) => s + e, 0) / runs.length)).padStart(13),
        `${runs.filter((r) => r.converged).length}/${runs.length}`.padStart(9),
        `${((100 * inside) / Math.max(1, total)).toFixed(1)}%`.padStart(9),
        `${(
          (100 * runs.reduce((s, r) => s + r.outsideTrio, 0)) /
          Math.max(
            1,
            runs.reduce((s, r) => s + r.totalOutsideTrio, 0),
          )
        ).toFixed(1)}%`.padStart(13),
        String(
          Math.round(runs.reduce((s, r) => s + (r.fitEpisodes ?? r.episodes), 0) / runs.length),
        ).padStart(26),
        `${runs.filter((r) => r.fitEpisodes !== null).length}/${runs.length}`.padStart(10),
      ].join(" "),
    );
  }
}
const headline = SIZES.includes(16) ? 16 : (SIZES[0] ?? 16);
const ratio =
  (medians.get(`${headline}:adaptive`) ?? 0) /
  Math.max(1, medians.get(`${headline}:round_robin`) ?? 1);
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
console.log(
  `ranking: adaptive needs ${ratio.toFixed(2)} of round robin's episodes; coverage ${((100 * allInside) / Math.max(1, allTotal)).toFixed(1)}%`,
);
