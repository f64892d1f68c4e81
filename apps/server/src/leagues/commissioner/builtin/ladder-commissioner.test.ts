// The ladder commissioner alone, over an in-process channel: what it answers a round_start.
import { describe, expect, it } from "vitest";

import { CommissionerToPlatform, LadderSettings } from "@gauntlet/core";

import { memoryChannel } from "../memory-channel.ts";
import { ladderCommissioner, type LadderInput } from "./ladder-commissioner.ts";

const settings = LadderSettings.parse({ seating: "round_robin", players_per_episode: 2 });
const entrant = (n: number) => ({
  playerId: `ply_${n}`,
  policyVersionId: `00000000-0000-4000-8000-00000000000${n}`,
  rating: 1000 + n,
  interval: null,
  settled: false,
  episodes: 0,
});

function roundStart(roundId: string) {
  return {
    type: "round_start",
    round_id: roundId,
    round_number: 1,
    league: { id: "l", commissioner_key: "ladder", commissioner_config: {} },
    divisions: [],
    memberships: [],
    recent_results: [],
    variants: [{ id: "v", name: "v", game_config: {}, num_agents: 2 }],
    completed_episodes: [],
    state: null,
  };
}

async function answer(input: LadderInput, roundId = "11111111-1111-4111-8111-111111111111") {
  const channel = memoryChannel(ladderCommissioner(input));
  await channel.send(roundStart(roundId));
  return CommissionerToPlatform.parse(await channel.next(1000));
}

describe("the ladder commissioner", () => {
  it("answers round_start with every pairing of a round robin, tagged with pool and seating", async () => {
    const reply = await answer({ entrants: [1, 2, 3].map(entrant), settings, variantId: "v" });
    expect(reply.type).toBe("schedule_episodes");
    if (reply.type !== "schedule_episodes") return;
    expect(reply.episodes).toHaveLength(3);
    const pairs = reply.episodes.map((e) => [...e.policy_version_ids].sort().join(" "));
    expect(new Set(pairs).size).toBe(3);
    for (const e of reply.episodes) {
      expect(e.variant_id).toBe("v");
      expect(e.tags).toEqual({ pool: "0", seating: "round_robin" });
    }
  });

  it("seats the same round the same way: the round id is its seed", async () => {
    const input = { entrants: [1, 2, 3, 4].map(entrant), settings, variantId: "v" };
    expect(await answer(input)).toEqual(await answer(input));
  });

  it("schedules nothing, and says why, when no round can run", async () => {
    const reply = await answer({ entrants: [entrant(1)], settings, variantId: "v" });
    expect(reply).toMatchObject({
      type: "round_complete",
      results: [],
      round_display: { skipped: { reason: "below_min_players" } },
    });
  });
});
