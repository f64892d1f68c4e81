// For the commissioner's tests: a league as the platform describes it (bare UUIDs, as Gauntlet's
// driver sends them), with builders for the messages the platform sends.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { Message } from "./conversation.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

export const LEAGUE = uuid(1);
export const HILL_ID = uuid(10);
export const DAILY_ID = uuid(11);
export const STAGING_ID = uuid(12);

/** Contenders: a policy version per player, and a membership for it. */
export const A = { membership: uuid(101), version: uuid(201), player: "ply_a" };
export const B = { membership: uuid(102), version: uuid(202), player: "ply_b" };
export const C = { membership: uuid(103), version: uuid(203), player: "ply_c" };
/** Player A's older version: competing, not its current one. */
export const A_OLD = { membership: uuid(104), version: uuid(204), player: "ply_a" };

export type Entrant = typeof A;

export const league = {
  id: LEAGUE,
  commissioner_key: "container",
  commissioner_config: { commissioner_runnable_id: "king-of-the-hill" },
};

export const hill = { id: HILL_ID, name: "Hill", level: 1, type: "competition" };

export function membership(
  e: Entrant,
  division = HILL_ID,
  extra: Partial<Record<string, unknown>> = {},
): Message {
  return {
    id: e.membership,
    league_id: LEAGUE,
    division_id: division,
    policy_version_id: e.version,
    player_id: e.player,
    player_name: e.player.replace("ply_", "Player "),
    preferences: {},
    status: "competing",
    substatus: null,
    is_champion: e !== A_OLD,
    ...extra,
  };
}

const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "coworld_manifest.json"), "utf8"),
) as { variants: { id: string; name: string; game_config: Record<string, unknown> }[] };

/** The coworld's variants as round_start carries them. */
export const variants = manifest.variants.map((v) => ({ ...v, num_agents: 4 }));

export function roundStart(
  roundNumber: number,
  entrants: readonly Entrant[],
  state: unknown = null,
  extra: Message = {},
): Message {
  return {
    type: "round_start",
    round_id: uuid(9000 + roundNumber),
    round_number: roundNumber,
    league,
    divisions: [hill],
    memberships: entrants.map((e) => membership(e)),
    recent_results: [],
    variants,
    completed_episodes: [],
    state,
    ...extra,
  };
}

/** An episode_result: `scores` per policy version (the platform lists them by seat). */
export function result(requestId: string, seats: string[], scores: number[]): Message {
  return {
    type: "episode_result",
    request_id: requestId,
    scores: seats.map((version, i) => ({
      policy_version_id: version,
      player_id: null,
      score: scores[i] ?? 0,
      scores: { score: scores[i] ?? 0 },
    })),
    game_results: { scores, winner_slot: null, turns: 40, seed: 1 },
  };
}
