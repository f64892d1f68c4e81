// OpenSkill: the Plackett–Luce model of Weng & Lin, "A Bayesian Approximation Method for Online
// Ranking" (JMLR 2011), Algorithm 4, with one player per team, as the `openskill` npm package
// computes it (dynamics τ added before the update, κ floor on the variance factor). Written out
// here rather than imported: the package pulls in ~160 dependencies for these few lines, and
// its vectors are checked in the tests.
import type { OpenSkillSettings } from "@gauntlet/core";

import type { Contestant } from "./contestants.ts";

export interface OpenSkillState {
  readonly kind: "openskill";
  readonly mu: number;
  readonly sigma: number;
  readonly episodes: number;
}

const KAPPA = 1e-4;

export function initialOpenSkillState(settings: OpenSkillSettings): OpenSkillState {
  return { kind: "openskill", mu: settings.mu, sigma: settings.sigma, episodes: 0 };
}

/** The conservative rating shown on leaderboards. */
export function openSkillOrdinal(state: Pick<OpenSkillState, "mu" | "sigma">): number {
  return state.mu - 3 * state.sigma;
}

/**
 * One Plackett–Luce update. `rank` is 0 for the winner; equal ranks are ties. Returns the new
 * (mu, sigma) of every player, in input order.
 */
export function plackettLuce(
  players: readonly { readonly mu: number; readonly sigma: number; readonly rank: number }[],
  settings: Pick<OpenSkillSettings, "beta" | "tau">,
): { mu: number; sigma: number }[] {
  const tauSq = settings.tau * settings.tau;
  const betaSq = settings.beta * settings.beta;
  const sigmaSq = players.map((p) => p.sigma * p.sigma + tauSq);
  const c = Math.sqrt(sigmaSq.reduce((sum, s) => sum + s + betaSq, 0));
  const strength = players.map((p) => Math.exp(p.mu / c));
  // sumQ[q]: total strength of those who did not beat q; tiedWith[q]: how many share q's rank.
  const sumQ = players.map((q) =>
    players.reduce((sum, p, i) => (p.rank >= q.rank ? sum + (strength[i] ?? 0) : sum), 0),
  );
  const tiedWith = players.map((q) => players.filter((p) => p.rank === q.rank).length);
  return players.map((p, i) => {
    let omega = 0;
    let delta = 0;
    players.forEach((q, qi) => {
      if (q.rank > p.rank) return;
      const quotient = (strength[i] ?? 0) / (sumQ[qi] ?? 1);
      const ties = tiedWith[qi] ?? 1;
      omega += (i === qi ? 1 - quotient : -quotient) / ties;
      delta += (quotient * (1 - quotient)) / ties;
    });
    const s2 = sigmaSq[i] ?? 0;
    const gamma = Math.sqrt(s2) / c;
    return {
      mu: p.mu + (s2 / c) * omega,
      sigma: Math.sqrt(s2) * Math.sqrt(Math.max(1 - (s2 / (c * c)) * gamma * delta, KAPPA)),
    };
  });
}

/** Competition ranks from scores, higher score first: [10, 5, 5, 1] → [0, 1, 1, 3]. */
export function ranksFromScores(scores: readonly number[]): number[] {
  return scores.map((s) => scores.filter((other) => other > s).length);
}

/** New states of the non-anchor contestants. */
export function applyOpenSkillEpisode(
  states: ReadonlyMap<string, OpenSkillState>,
  players: readonly Contestant[],
  settings: OpenSkillSettings,
): Map<string, OpenSkillState> {
  const updated = new Map<string, OpenSkillState>();
  if (players.length < 2) return updated;
  const current = players.map((p) => states.get(p.subjectId) ?? initialOpenSkillState(settings));
  const ranks = ranksFromScores(players.map((p) => p.score));
  const next = plackettLuce(
    current.map((s, i) => ({ mu: s.mu, sigma: s.sigma, rank: ranks[i] ?? 0 })),
    settings,
  );
  players.forEach((p, i) => {
    const state = current[i];
    const rated = next[i];
    if (p.anchor || !state || !rated) return;
    updated.set(p.subjectId, {
      kind: "openskill",
      mu: rated.mu,
      sigma: rated.sigma,
      episodes: state.episodes + 1,
    });
  });
  return updated;
}
