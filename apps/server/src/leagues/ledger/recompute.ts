// Ratings recomputed from the record: the league's settled rounds replayed, in the order they
// settled, through the same scoring rule (scored-episodes.ts) and rating code (rules/) a settling
// round uses, from initial ratings. Ratings live per player across the league's divisions (a
// promoted player keeps its rating), so the whole league is replayed and the division's rows
// compared; a dry run answers the differences, the real run stores them.
import type { Transaction } from "kysely";

import type { LadderSettings, RatingsRecompute } from "@gauntlet/core";

import type { Emit } from "../../events/record.ts";
import { nowIso, parseJson } from "../../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../../store/schema.ts";
import {
  applyRound,
  displayRating,
  type RatingState,
  type SettledEpisode,
} from "../rules/index.ts";
import { refreshStandings } from "../standings-write.ts";
import { recordedEpisodes, scoredEpisodes } from "./scored-episodes.ts";

/** A rating this close counts as unchanged (float noise of summing in another order). */
const EPSILON = 1e-9;

export interface Replay {
  states: Map<string, RatingState>;
  rounds: number;
  scored: number;
  unscored: number;
}

/** The league's ratings as its record makes them. */
export async function replayLeague(
  trx: Transaction<Database>,
  leagueId: string,
  settings: LadderSettings,
): Promise<Replay> {
  const rounds = await trx
    .selectFrom("rounds")
    .select(["id", "status"])
    .where("league_id", "=", leagueId)
    // A failed round scored nothing (it has no scored episode); read for its count only.
    .where("status", "in", ["completed", "failed"])
    .orderBy("completed_at")
    .orderBy("round_number")
    .orderBy("id")
    .execute();
  const recorded = await recordedEpisodes(
    trx,
    rounds.map((r) => r.id),
  );
  const states = new Map<string, RatingState>();
  let scored = 0;
  let unscored = 0;
  let replayed = 0;
  for (const round of rounds) {
    if (round.status === "failed") {
      unscored += recorded.get(round.id)?.length ?? 0;
      continue;
    }
    replayed += 1;
    const episodes: SettledEpisode[] = [];
    for (const e of recorded.get(round.id) ?? []) {
      const rated = scoredEpisodes(e, settings);
      if (rated.length) scored += 1;
      else unscored += 1;
      episodes.push(...rated);
    }
    for (const [id, state] of applyRound(states, episodes, settings)) states.set(id, state);
  }
  return { states, rounds: replayed, scored, unscored };
}

export async function recomputeDivision(
  trx: Transaction<Database>,
  emit: Emit,
  league: LeaguesTable,
  settings: LadderSettings,
  division: DivisionsTable,
  options: { dryRun: boolean; reason: string },
): Promise<RatingsRecompute> {
  const replay = await replayLeague(trx, league.id, settings);
  const rows = await trx
    .selectFrom("ladder_ratings as lr")
    .innerJoin("players as p", "p.id", "lr.player_id")
    .select(["lr.player_id", "lr.state", "p.name as player_name"])
    .where("lr.league_id", "=", league.id)
    .where("lr.division_id", "=", division.id)
    .execute();
  const rating = (state: RatingState | undefined) =>
    state && state.kind === settings.ranking ? displayRating(state, settings) : null;
  const differences = rows.map((row) => {
    const stored = rating(row.state === null ? undefined : parseJson<RatingState>(row.state));
    const recomputed = rating(replay.states.get(row.player_id));
    return {
      player_id: row.player_id,
      player_name: row.player_name,
      stored,
      recomputed,
      difference: (recomputed ?? 0) - (stored ?? 0),
      changed:
        (stored === null) !== (recomputed === null) ||
        Math.abs((recomputed ?? 0) - (stored ?? 0)) > EPSILON,
    };
  });
  differences.sort(
    (a, b) =>
      Number(b.changed) - Number(a.changed) ||
      Math.abs(b.difference) - Math.abs(a.difference) ||
      (a.player_name < b.player_name ? -1 : 1),
  );
  const changed = differences.filter((d) => d.changed);
  const apply = !options.dryRun && changed.length > 0;
  if (apply) {
    const at = nowIso();
    for (const d of changed) {
      const state = replay.states.get(d.player_id);
      await trx
        .updateTable("ladder_ratings")
        .set({ state: state ? JSON.stringify(state) : null, updated_at: at })
        .where("league_id", "=", league.id)
        .where("player_id", "=", d.player_id)
        .execute();
    }
    emit({
      type: "ratings_recomputed",
      refs: { league, division },
      headline: `${division.name}: ratings recomputed from the record — ${changed.length} changed`,
      summary: options.reason,
      payload: {
        division_id: division.id,
        rounds: replay.rounds,
        episodes_scored: replay.scored,
        episodes_unscored: replay.unscored,
        changes: changed.map((d) => ({
          player_id: d.player_id,
          player_name: d.player_name,
          stored: d.stored,
          recomputed: d.recomputed,
        })),
      },
    });
    await refreshStandings(trx, league, settings, division, null, emit);
  }
  return {
    division_id: division.id,
    dry_run: options.dryRun,
    applied: apply,
    rounds: replay.rounds,
    episodes_scored: replay.scored,
    episodes_unscored: replay.unscored,
    rows: differences.map(({ changed: _changed, ...d }) => d),
  };
}
