// Objects shaped like the server's answers, built through the contract's own schemas so that a
// fixture that drifts from the contract fails loudly. For tests only.
import { randomUUID } from "node:crypto";

import {
  CompetitionEvent,
  Division,
  EpisodeRequest,
  LeaderboardRow,
  newId,
  RoundDetail,
  type CompetitionEventType,
  type LeaderboardRecentRound,
  type League,
} from "@gauntlet/core";
import { sampleLeague } from "@gauntlet/server/fixtures";

const AT = "2026-01-01T12:00:00.000Z";

export function league(overrides: Partial<League> = {}): League {
  const sample = sampleLeague();
  return sampleLeague({
    id: newId("league"),
    name: "Spring League",
    game: {
      ...sample.game,
      id: newId("game"),
      name: "gridrush",
      owner_user_id: "user_1",
      created_at: AT,
    },
    created_at: AT,
    commissioner_user_id: "user_1",
    ...overrides,
  });
}

export function division(of: League, overrides: Partial<Division> = {}): Division {
  return Division.parse({
    id: newId("division"),
    name: "Premier",
    level: 1,
    league: of,
    created_at: AT,
    type: "competition",
    description: null,
    hidden: false,
    archived_at: null,
    leaderboard_config: {},
    round_schedule: {},
    notes: null,
    commissioner_description: {},
    ...overrides,
  });
}

export function recentRound(roundNumber: number, rank: number | null): LeaderboardRecentRound {
  return {
    id: newId("round"),
    round_number: roundNumber,
    status: rank === null ? "running" : "completed",
    rank,
    score: rank === null ? null : 10 - rank,
    started_at: AT,
    completed_at: rank === null ? null : AT,
  };
}

export function row(
  rank: number,
  name: string,
  overrides: Partial<LeaderboardRow> = {},
): LeaderboardRow {
  return LeaderboardRow.parse({
    rank,
    player_id: newId("player"),
    player_name: name,
    score: 1500 - rank * 10,
    score_label: "Elo",
    rounds_played: 3,
    recent_rounds: [],
    episodes_played: 6,
    ...overrides,
  });
}

export function round(
  of: Division,
  roundNumber: number,
  overrides: Partial<RoundDetail> = {},
): RoundDetail {
  return RoundDetail.parse({
    id: newId("round"),
    round_number: roundNumber,
    commissioner_key: "ladder",
    commissioner: { kind: "builtin", key: "ladder" },
    execution_backend: "runner",
    round_config: {},
    round_display: { episodes: 3 },
    status: "running",
    error: null,
    started_at: AT,
    completed_at: null,
    division: of,
    league_id: of.league.id,
    created_at: AT,
    results: [],
    ...overrides,
  });
}

let seq = 1000;

export function event(
  type: CompetitionEventType,
  of: Division,
  overrides: Partial<CompetitionEvent> = {},
): CompetitionEvent {
  seq += 1;
  return CompetitionEvent.parse({
    id: randomUUID(),
    seq,
    event_type: type,
    audience: "public",
    user_id: null,
    player: null,
    policy_version: null,
    league: of.league,
    division: of,
    round_id: null,
    episode_request_id: null,
    headline: `${of.name}: ${type}`,
    summary: "",
    payload: {},
    created_at: AT,
    ...overrides,
  });
}

export function episode(
  players: readonly string[],
  overrides: Partial<EpisodeRequest> = {},
): EpisodeRequest {
  return EpisodeRequest.parse({
    id: newId("episodeRequest"),
    requester_user_id: "user_1",
    round_id: null,
    coworld_id: newId("coworld"),
    game_config: {},
    seed: 1,
    max_steps: null,
    status: "completed",
    policy_version_ids: players.map(() => randomUUID()),
    participants: players.map((name, position) => ({
      position,
      policy_version_id: randomUUID(),
      policy_id: randomUUID(),
      policy_name: `${name.toLowerCase()}-policy`,
      version: 1,
      player_id: newId("player"),
      player_name: name,
    })),
    job_id: null,
    episode_id: null,
    replay_url: null,
    live_url: null,
    error_type: null,
    error: null,
    failed_policy_index: null,
    failed_agent_index: null,
    isolation: null,
    scores: players.map((_, position) => ({
      policy_version_id: null,
      position,
      score: 10 - position,
    })),
    created_at: AT,
    updated_at: AT,
    ...overrides,
  });
}
