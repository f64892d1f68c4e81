// Division standings, computed once when a round settles and stored; reads serve them as is.
// Rows are ordered by the ranking value, then by rounds played, then by player id, so equal
// standings always come out in the same order; equal values share a rank (1, 2, 2, 4).
import type {
  DivisionLeaderboard,
  DivisionLeaderboards,
  LadderSettings,
  LeaderboardColumn,
  LeaderboardRecentRound,
  LeaderboardRow,
  RankingKind,
} from "@gauntlet/core";

import { laplaceStrengths } from "./confidence/laplace.ts";
import { rowCertainty, scaleOf, type RowCertainty } from "./confidence/row-figures.ts";
import { reordered } from "./confidence/strength-summary.ts";
import {
  displayRating,
  initialRatingState,
  type RatingState,
  type SettledEpisode,
} from "./ratings/index.ts";

export interface StandingEntry {
  readonly playerId: string;
  readonly playerName: string;
  /** Undefined (or a state of another ranking kind) for a player not yet rated: initial rating. */
  readonly state: RatingState | undefined;
  readonly roundsPlayed: number;
  readonly recentRounds: readonly LeaderboardRecentRound[];
  /** The player's champion(s) in this division. */
  readonly policyVersionIds: readonly string[];
  /** Who the player is in `StandingsOptions.record` (its champion's subject); the player id unless given. */
  readonly subjectId?: string;
}

/** The division's settled episodes, from which each row's certainty figures are computed. */
export interface StandingsRecord {
  readonly episodes: readonly SettledEpisode[];
  /** Same record and seed, same figures. */
  readonly seed: string;
  /** Draws the rank ranges are read from (see confidence/laplace.ts). */
  readonly draws?: number;
}

export interface StandingsOptions {
  readonly includeRecentRounds?: boolean;
  /** Newest rounds kept per row; 5 unless given. */
  readonly recentRoundsLimit?: number;
  /** With a record, rows carry score_interval, rank_range, p_above_next and settled. */
  readonly record?: StandingsRecord;
}

interface Ranked {
  readonly entry: StandingEntry;
  readonly state: RatingState;
  readonly score: number;
  readonly rank: number;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders by score, then rounds played, then player id; equal scores share a rank. */
function place<T extends Omit<Ranked, "rank">>(scored: readonly T[]): (T & { rank: number })[] {
  const sorted = [...scored].sort(
    (a, b) =>
      b.score - a.score ||
      b.entry.roundsPlayed - a.entry.roundsPlayed ||
      compareIds(a.entry.playerId, b.entry.playerId),
  );
  let current = 0;
  return sorted.map((s, i) => {
    if (i === 0 || s.score !== sorted[i - 1]?.score) current = i + 1;
    return { ...s, rank: current };
  });
}

function rank(entries: readonly StandingEntry[], settings: LadderSettings): Ranked[] {
  return place(
    entries.map((entry) => {
      const state =
        entry.state && entry.state.kind === settings.ranking
          ? entry.state
          : initialRatingState(settings);
      return { entry, state, score: displayRating(state, settings) };
    }),
  );
}

function recent(entry: StandingEntry, options: StandingsOptions): LeaderboardRecentRound[] {
  if (options.includeRecentRounds === false) return [];
  return [...entry.recentRounds]
    .sort((a, b) => b.round_number - a.round_number)
    .slice(0, options.recentRoundsLimit ?? 5);
}

const subjectOf = (r: Ranked): string => r.entry.subjectId ?? r.entry.playerId;

/**
 * The rows with their certainty figures. A row the record knows publishes the fit's strength on
 * the league's scale, with the fit's 95% interval around it, and the rows are placed by it: the
 * score, its interval and the order are one reading of the whole record. A row the record says
 * nothing about keeps its online rating. Every row keeps the online rating as its `form`.
 */
function certainty(
  online: readonly Ranked[],
  settings: LadderSettings,
  record: StandingsRecord,
): { ranked: readonly (Ranked & { form: number })[]; rows: RowCertainty[]; episodes: number } {
  const summary = laplaceStrengths(record.episodes, online.map(subjectOf), {
    seed: record.seed,
    draws: record.draws,
  });
  const scale = scaleOf(settings.ranking === "elo" ? "elo" : "regression", online, summary);
  const fitted = online.map((r, i) => {
    const t = summary.targets[i];
    const score = t?.known && scale ? scale(t.estimate) : r.score;
    return { ...r, score, form: r.score, from: i };
  });
  const ranked = place(fitted);
  const order = ranked.map((r) => r.from);
  return {
    ranked,
    rows: rowCertainty(ranked, reordered(summary, order), scale),
    episodes: summary.episodes,
  };
}

const scoreLabel: Record<RankingKind, string> = {
  elo: "Elo",
  score: "Score",
  openskill: "Rating (μ − 3σ)",
};

/** Leaderboard rows, best first (GET /v2/divisions/{id}/leaderboard). */
export function standings(
  entries: readonly StandingEntry[],
  settings: LadderSettings,
  options: StandingsOptions = {},
): LeaderboardRow[] {
  const figures = options.record
    ? certainty(rank(entries, settings), settings, options.record)
    : null;
  const ranked: readonly (Ranked & { form?: number })[] = figures
    ? figures.ranked
    : rank(entries, settings);
  return ranked.map((r, i) => ({
    rank: r.rank,
    player_id: r.entry.playerId,
    player_name: r.entry.playerName,
    score: r.score,
    score_label: scoreLabel[settings.ranking],
    rounds_played: r.entry.roundsPlayed,
    recent_rounds: recent(r.entry, options),
    episodes_played: r.state.episodes,
    ...(figures
      ? {
          ...figures.rows[i],
          form: r.form ?? r.score,
          evidence_episodes: figures.episodes,
        }
      : {}),
  }));
}

/** The leaderboard response: null when the division has nobody to rank. */
export function divisionLeaderboard(rows: readonly LeaderboardRow[]): DivisionLeaderboard {
  return rows.length === 0 ? null : [...rows];
}

const scoreDescription: Record<RankingKind, string> = {
  elo: "Players ranked by Elo rating.",
  score: "Players ranked by their score standing.",
  openskill: "Players ranked by OpenSkill (Plackett–Luce) conservative rating, mu − 3·sigma.",
};

/**
 * The views response (GET /v2/divisions/{id}/leaderboards): one view, keyed by the ranking. Given
 * the published rows (`standings` with a record), the view shows their order, ranks and scores,
 * so both answers agree.
 */
export function leaderboardViews(
  entries: readonly StandingEntry[],
  settings: LadderSettings,
  options: StandingsOptions = {},
  published?: readonly LeaderboardRow[],
): DivisionLeaderboards {
  const columns: LeaderboardColumn[] = [
    { key: "rank", label: "Rank", value_type: "integer", sort: "asc" },
    { key: "score", label: scoreLabel[settings.ranking], value_type: "number", sort: "desc" },
    { key: "rounds_played", label: "Rounds", value_type: "integer", sort: null },
    { key: "episodes_played", label: "Episodes", value_type: "integer", sort: null },
  ];
  if (settings.ranking === "openskill") {
    columns.push(
      { key: "mu", label: "μ", value_type: "number", sort: null },
      { key: "sigma", label: "σ", value_type: "number", sort: null },
    );
  }
  const shown = published?.length
    ? new Map(published.map((row, i) => [row.player_id, { row, i }]))
    : null;
  const ranked = rank(entries, settings).map((r) => {
    const p = shown?.get(r.entry.playerId);
    return p ? { ...r, rank: p.row.rank, score: p.row.score, at: p.i } : { ...r, at: 0 };
  });
  if (shown) ranked.sort((a, b) => a.at - b.at);
  const rows = ranked.map((r) => {
    const values: Record<string, number> = {
      rank: r.rank,
      score: r.score,
      rounds_played: r.entry.roundsPlayed,
      episodes_played: r.state.episodes,
    };
    if (r.state.kind === "openskill") {
      values.mu = r.state.mu;
      values.sigma = r.state.sigma;
    }
    return {
      subject_type: "player" as const,
      subject_id: r.entry.playerId,
      subject_name: r.entry.playerName,
      values,
      policy_version_ids: [...r.entry.policyVersionIds],
      recent_rounds: recent(r.entry, options),
    };
  });
  return {
    default_view_key: "overall",
    axes: [{ key: "ranking", label: "Ranking" }],
    views: [
      {
        key: "overall",
        title: "Standings",
        description: scoreDescription[settings.ranking],
        axis_values: { ranking: settings.ranking },
        columns,
        rows,
      },
    ],
  };
}
