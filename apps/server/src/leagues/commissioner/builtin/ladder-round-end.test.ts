// The ladder commissioner's round end alone: the rankings and membership events it answers from
// the round's scored episodes and the standings' inputs.
import { describe, expect, it } from "vitest";

import { LadderSettings, type CommissionerMembershipInfo } from "@gauntlet/core";

import type { SettledEpisode } from "../../rules/index.ts";
import { toWire } from "../wire-ids.ts";
import { ladderRoundComplete, type LadderEnding } from "./ladder-round-end.ts";

const settings = LadderSettings.parse({
  ranking: "elo",
  promotion: { promote: 1, relegate: 1, every_rounds: 1 },
});
const at = new Date("2026-11-29T00:00:00Z");
const version = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const UPPER = "div_00000000-0000-4000-8000-0000000000a1";
const LOWER = "div_00000000-0000-4000-8000-0000000000b2";

/** Ada beats Bo twice; a filler (an anchor) beats Bo too and is ranked nowhere. */
const episodes: SettledEpisode[] = [
  {
    at,
    participants: [
      { subjectId: "ply_ada", score: 1, anchor: false },
      { subjectId: "ply_bo", score: 0, anchor: false },
    ],
  },
  {
    at,
    participants: [
      { subjectId: "ply_ada", score: 1, anchor: false },
      { subjectId: "ply_bo", score: 0, anchor: false },
    ],
  },
  {
    at,
    participants: [
      { subjectId: `filler:${version(9)}`, score: 1, anchor: true },
      { subjectId: "ply_bo", score: 0, anchor: false },
    ],
  },
];

/** Bo led before this round: 10 Elo above Ada, who starts at the initial rating. */
const boBefore = {
  kind: "elo" as const,
  rating: settings.elo.initial + 10,
  episodes: 10,
  pendingDelta: 0,
  pendingEpisodes: 0,
};

const entry = (playerId: string) => ({
  playerId,
  playerName: playerId,
  state: playerId === "ply_bo" ? boBefore : undefined,
  roundsPlayed: 0,
  recentRounds: [],
  policyVersionIds: [],
});

function membership(id: number, playerId: string, division: string): CommissionerMembershipInfo {
  return {
    id: `00000000-0000-4000-8000-0000000001${String(id).padStart(2, "0")}`,
    league_id: "00000000-0000-4000-8000-000000000100",
    division_id: toWire(division),
    policy_version_id: version(id),
    player_id: playerId,
    preferences: {},
    status: "competing",
    substatus: "active",
    is_champion: id !== 2,
  };
}

function ending(promotion: LadderEnding["promotion"]): LadderEnding {
  return {
    settings,
    divisionId: UPPER,
    episodes,
    champions: new Map([
      ["ply_ada", version(1)],
      ["ply_bo", version(3)],
    ]),
    states: new Map([["ply_bo", boBefore]]),
    promotion,
  };
}

describe("the ladder commissioner's round_complete", () => {
  it("ranks the division's players by their round, and no filler", () => {
    const complete = ladderRoundComplete(ending(null), []);
    expect(complete.results).toEqual([
      {
        division_id: toWire(UPPER),
        rankings: [
          {
            policy_version_id: version(1),
            player_id: "ply_ada",
            rank: 1,
            score: 1,
            result_metadata: { episodes: 2 },
          },
          {
            policy_version_id: version(3),
            player_id: "ply_bo",
            rank: 2,
            score: 0,
            result_metadata: { episodes: 3 },
          },
        ],
      },
    ]);
    expect(complete.policy_membership_events).toEqual([]);
  });

  it("moves the bottom of its division down and the top of the one below up, every membership of each", () => {
    const complete = ladderRoundComplete(
      ending({
        roundsCompleted: 1,
        upper: {
          divisionId: UPPER,
          inputs: {
            entries: [entry("ply_ada"), entry("ply_bo")],
            record: { episodes: [], seed: UPPER },
          },
        },
        lower: {
          divisionId: LOWER,
          inputs: { entries: [entry("ply_cy")], record: { episodes: [], seed: LOWER } },
        },
      }),
      [
        membership(1, "ply_ada", UPPER),
        membership(2, "ply_bo", UPPER),
        membership(3, "ply_bo", UPPER),
        membership(4, "ply_cy", LOWER),
      ],
    );
    // Bo led before this round and lost all of it: with it counted, Bo is last of the upper
    // division. Both of Bo's live memberships go down with it.
    expect(
      complete.policy_membership_events.map((e) => [
        e.league_policy_membership_id.slice(-2),
        e.reason,
        e.to_division_id,
      ]),
    ).toEqual([
      ["04", "promotion", toWire(UPPER)],
      ["02", "relegation", toWire(LOWER)],
      ["03", "relegation", toWire(LOWER)],
    ]);
  });

  it("ranks nobody when no player's episode counted", () => {
    const fillersOnly = { ...ending(null), episodes: [] };
    expect(ladderRoundComplete(fillersOnly, []).results).toEqual([]);
  });
});
