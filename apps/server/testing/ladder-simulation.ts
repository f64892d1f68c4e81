// A division played without HTTP or a database, through the real round planning, ratings and
// standings code: each round is planned by planRound from the last standings, its episodes are
// drawn from known strengths, rated by applyRound, and the standings (with their certainty
// figures) recomputed from the whole record. For the seating tests and `bench ranking`.
import type { LadderSettings, LeaderboardRow } from "@gauntlet/core";

import { drawEpisode } from "../src/leagues/rules/confidence/synthetic.ts";
import {
  applyRound,
  createRng,
  displayRating,
  initialRatingState,
  planRound,
  standings,
  type CertainEntrant,
  type RatingState,
  type Rng,
  type RoundPlan,
  type SettledEpisode,
} from "../src/leagues/rules/index.ts";

export interface SimulatedPlayer {
  readonly id: string;
  /** Log-strength: the chance of finishing ahead of those left is its share of exp(strength). */
  readonly strength: number;
}

/** Draws one episode among the seated players; Plackett–Luce on their strengths unless given. */
export type Outcome = (seated: readonly string[], rng: Rng) => SettledEpisode;

export interface SimulatedRound {
  readonly plan: RoundPlan;
  readonly rows: readonly LeaderboardRow[];
}

export class LadderSimulation {
  readonly settings: LadderSettings;
  readonly record: SettledEpisode[] = [];
  rows: LeaderboardRow[] = [];
  #players: SimulatedPlayer[];
  readonly #states = new Map<string, RatingState>();
  readonly #rounds = new Map<string, number>();
  readonly #rng: Rng;
  readonly #outcome: Outcome;
  readonly #seed: string;
  readonly #draws: number | undefined;
  #roundNumber = 0;

  constructor(options: {
    settings: LadderSettings;
    players: readonly SimulatedPlayer[];
    seed: string;
    outcome?: Outcome;
    draws?: number;
  }) {
    this.settings = options.settings;
    this.#players = [...options.players];
    this.#seed = options.seed;
    this.#rng = createRng(`sim:${options.seed}`);
    this.#draws = options.draws;
    const strength = new Map(options.players.map((p) => [p.id, p.strength]));
    this.#outcome =
      options.outcome ?? ((seated, rng) => drawEpisode(seated, (id) => strength.get(id) ?? 0, rng));
    this.#refresh();
  }

  get episodes(): number {
    return this.record.length;
  }

  /** A new entrant joins (the standings show it at once, with nothing known of it). */
  add(player: SimulatedPlayer): void {
    this.#players.push(player);
    this.#refresh();
  }

  /** Plans and plays one round; a skipped plan plays nothing. */
  round(): SimulatedRound {
    this.#roundNumber += 1;
    const rowOf = new Map(this.rows.map((r) => [r.player_id, r]));
    const initial = initialRatingState(this.settings);
    const entrants: CertainEntrant[] = this.#players.map((p) => {
      const row = rowOf.get(p.id);
      return {
        playerId: p.id,
        policyVersionId: `version-${p.id}`,
        rating: displayRating(this.#states.get(p.id) ?? initial, this.settings),
        interval: row?.score_interval ?? null,
        settled: row?.settled ?? false,
        episodes: row?.episodes_played ?? 0,
      };
    });
    const plan = planRound({
      entrants,
      settings: this.settings,
      seed: `${this.#seed}:${this.#roundNumber}`,
      roundNumber: this.#roundNumber,
    });
    if (plan.kind === "run") {
      const episodes = plan.pools.flatMap((pool) =>
        pool.episodes.map((e) =>
          this.#outcome(
            e.seats.flatMap((s) => (s.playerId === null ? [] : [s.playerId])),
            this.#rng,
          ),
        ),
      );
      const played = new Set(episodes.flatMap((e) => e.participants.map((p) => p.subjectId)));
      for (const [id, state] of applyRound(this.#states, episodes, this.settings))
        this.#states.set(id, state);
      for (const id of played) this.#rounds.set(id, (this.#rounds.get(id) ?? 0) + 1);
      this.record.push(...episodes);
      this.#refresh();
    }
    return { plan, rows: this.rows };
  }

  #refresh(): void {
    this.rows = standings(
      this.#players.map((p) => ({
        playerId: p.id,
        playerName: p.id,
        state: this.#states.get(p.id),
        roundsPlayed: this.#rounds.get(p.id) ?? 0,
        recentRounds: [],
        policyVersionIds: [`version-${p.id}`],
      })),
      this.settings,
      {
        includeRecentRounds: false,
        record: { episodes: this.record, seed: this.#seed, draws: this.#draws },
      },
    );
  }
}
