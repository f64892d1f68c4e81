// One entry point for every ranking kind. Each call touches only the episode's participants, so
// its cost depends on the seats of one episode, never on the division's size or history.
import type { LadderSettings } from "@gauntlet/core";

import { contestants, type SettledEpisode } from "./contestants.ts";
import { applyEloEpisode, closeEloRound, initialEloState, type EloState } from "./elo.ts";
import {
  applyOpenSkillEpisode,
  initialOpenSkillState,
  openSkillOrdinal,
  type OpenSkillState,
} from "./openskill.ts";
import { addScore, initialScoreState, scoreStanding, type ScoreState } from "./score.ts";

export type { EpisodeParticipant, SettledEpisode } from "./contestants.ts";
export type { EloState } from "./elo.ts";
export type { OpenSkillState } from "./openskill.ts";
export type { ScoreState } from "./score.ts";

export type RatingState = EloState | ScoreState | OpenSkillState;
export type RatingStates = ReadonlyMap<string, RatingState>;
/** What an update reads: a Map of states serves, or any lookup over a larger store. */
export type RatingLookup = Pick<RatingStates, "get">;

export function initialRatingState(settings: LadderSettings): RatingState {
  switch (settings.ranking) {
    case "elo":
      return initialEloState(settings.elo);
    case "score":
      return initialScoreState();
    case "openskill":
      return initialOpenSkillState(settings.openskill);
  }
}

/**
 * States of the current ranking kind only. A state of another kind (the league switched its
 * ranking) is left out, so that subject starts fresh, as a ranking switch means fresh standings.
 */
function pick<S extends RatingState>(
  states: RatingLookup,
  ids: readonly string[],
  is: (s: RatingState) => s is S,
): Map<string, S> {
  const out = new Map<string, S>();
  for (const id of ids) {
    const state = states.get(id);
    if (state && is(state)) out.set(id, state);
  }
  return out;
}

const isElo = (s: RatingState): s is EloState => s.kind === "elo";
const isScore = (s: RatingState): s is ScoreState => s.kind === "score";
const isOpenSkill = (s: RatingState): s is OpenSkillState => s.kind === "openskill";

/**
 * Applies one settled episode. Returns the new states of its participants (anchors excepted);
 * the input map is not changed. Participants missing from `states` start at the initial rating.
 * Under Elo the rating itself moves when the round closes ({@link closeRound}).
 */
export function applyEpisode(
  states: RatingLookup,
  episode: SettledEpisode,
  settings: LadderSettings,
): Map<string, RatingState> {
  const players = contestants(episode.participants);
  const ids = players.map((p) => p.subjectId);
  switch (settings.ranking) {
    case "elo":
      return applyEloEpisode(pick(states, ids, isElo), players, settings.elo);
    case "openskill":
      return applyOpenSkillEpisode(pick(states, ids, isOpenSkill), players, settings.openskill);
    case "score": {
      const current = pick(states, ids, isScore);
      const updated = new Map<string, RatingState>();
      for (const p of players) {
        if (p.anchor) continue;
        updated.set(
          p.subjectId,
          addScore(
            current.get(p.subjectId) ?? initialScoreState(),
            p.score,
            episode.at,
            settings.score,
          ),
        );
      }
      return updated;
    }
  }
}

/**
 * Closes a round for the given states (pass the round's participants). Returns those that
 * changed: under Elo, each state with pending episodes gets the round's change folded into
 * its rating. Score and OpenSkill states move per episode and come back unchanged (empty map).
 */
export function closeRound(states: RatingStates): Map<string, RatingState> {
  const updated = new Map<string, RatingState>();
  for (const [id, state] of states) {
    if (state.kind === "elo" && state.pendingEpisodes > 0) updated.set(id, closeEloRound(state));
  }
  return updated;
}

/** A whole round at once: every episode in order, then {@link closeRound}. Returns all touched states. */
export function applyRound(
  states: RatingLookup,
  episodes: readonly SettledEpisode[],
  settings: LadderSettings,
): Map<string, RatingState> {
  const touched = new Map<string, RatingState>();
  const view: RatingLookup = { get: (id: string) => touched.get(id) ?? states.get(id) };
  for (const episode of episodes) {
    for (const [id, state] of applyEpisode(view, episode, settings)) touched.set(id, state);
  }
  for (const [id, state] of closeRound(touched)) touched.set(id, state);
  return touched;
}

/** The number a leaderboard ranks by: Elo rating, score standing, or OpenSkill mu − 3·sigma. */
export function displayRating(state: RatingState, settings: LadderSettings): number {
  switch (state.kind) {
    case "elo":
      return state.rating;
    case "score":
      return scoreStanding(state, settings.score);
    case "openskill":
      return openSkillOrdinal(state);
  }
}

/** Settled episodes that counted toward the state. */
export function episodesRated(state: RatingState): number {
  return state.episodes;
}
