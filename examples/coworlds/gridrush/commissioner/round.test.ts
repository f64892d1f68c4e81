// Rounds of king of the hill, each run by a fresh commissioner process over a real WebSocket as
// the platform runs them: round_start, the duels it schedules one at a time, their outcomes, and
// round_complete with the rankings, the membership events and the state the next round reads.
// Every message it sends is checked against @gauntlet/core's schemas (conversation.ts).
import { afterEach, describe, expect, it } from "vitest";

import { Conversation, startCommissioner, stopAll, type Message } from "./conversation.ts";
import {
  A,
  A_OLD,
  B,
  C,
  HILL_ID,
  membership,
  result,
  roundStart,
  type Entrant,
} from "./fixture.ts";

afterEach(stopAll);

interface Scheduled {
  request_id: string;
  variant_id: string;
  policy_version_ids: string[];
  seed: number;
  tags: Record<string, string>;
}

async function scheduled(talk: Conversation): Promise<Scheduled> {
  const message = await talk.expect("schedule_episodes");
  const episodes = message.episodes as Scheduled[];
  expect(episodes).toHaveLength(1);
  const [episode] = episodes;
  if (!episode) throw new Error("no episode");
  talk.send({ type: "episodes_accepted", request_ids: [episode.request_id] });
  return episode;
}

/** Plays one duel: `winner` scores 3, the other 1. */
async function duel(talk: Conversation, winner: Entrant): Promise<Scheduled> {
  const episode = await scheduled(talk);
  const seats = episode.policy_version_ids;
  talk.send(
    result(
      episode.request_id,
      seats,
      seats.map((v) => (v === winner.version ? 3 : 1)),
    ),
  );
  return episode;
}

/** One whole round in a new process; returns its round_complete. */
async function round(
  number: number,
  entrants: Entrant[],
  state: unknown,
  winners: Entrant[],
): Promise<Message> {
  const commissioner = await startCommissioner();
  const talk = await Conversation.open(commissioner);
  talk.send(roundStart(number, entrants, state));
  for (const winner of winners) await duel(talk, winner);
  const complete = await talk.expect("round_complete");
  expect(await talk.closed).toBe(1000);
  expect(await commissioner.exit).toBe(0);
  return complete;
}

function ranking(complete: Message): {
  policy_version_id: string;
  rank: number;
  score: number;
  result_metadata: Record<string, unknown>;
}[] {
  const results = complete.results as { division_id: string; rankings: never[] }[];
  expect(results.map((r) => r.division_id)).toEqual([HILL_ID]);
  return results[0]?.rankings ?? [];
}

describe("a round of king of the hill", () => {
  it("retries a failed duel once with a new seed, then ranks an unplayed pair by what is known", async () => {
    const commissioner = await startCommissioner();
    const talk = await Conversation.open(commissioner);
    talk.send({
      ...roundStart(1, [A, B, C]),
      memberships: [
        membership(A),
        membership(B),
        membership(C),
        membership(A_OLD, HILL_ID, { substatus: "active" }),
      ],
    });
    // No state: the first contender holds the hill; it meets B first, in seat 0.
    const first = await scheduled(talk);
    expect(first).toMatchObject({
      variant_id: "duel-small",
      policy_version_ids: [A.version, B.version],
    });
    expect(first.tags).toEqual({
      commissioner: "king-of-the-hill",
      duel: "1",
      attempt: "1",
      king_seat: "0",
    });
    talk.send({
      type: "episode_failed",
      request_id: first.request_id,
      error: "crashed: the game exited 3",
    });
    const retry = await scheduled(talk);
    expect(retry.policy_version_ids).toEqual(first.policy_version_ids);
    expect(retry.request_id).not.toBe(first.request_id);
    expect(retry.seed).not.toBe(first.seed);
    expect(retry.tags.attempt).toBe("2");
    // B wins the replay and takes the crown; then B meets C, seats swapped.
    talk.send(result(retry.request_id, [A.version, B.version], [1, 4]));
    const second = await scheduled(talk);
    expect(second.policy_version_ids).toEqual([C.version, B.version]);
    expect(second.tags.king_seat).toBe("1");
    talk.send({ type: "episode_failed", request_id: second.request_id, error: "timeout" });
    const secondRetry = await scheduled(talk);
    talk.send({ type: "episode_failed", request_id: secondRetry.request_id, error: "timeout" });

    const complete = await talk.expect("round_complete");
    // B is king; A played (and lost) so ranks above C, whose duel never happened.
    expect(
      ranking(complete).map((r) => [r.policy_version_id, r.rank, r.result_metadata.role]),
    ).toEqual([
      [B.version, 1, "king"],
      [A.version, 2, "dethroned"],
      [C.version, 3, "challenger"],
    ]);
    expect(ranking(complete)[2]?.result_metadata).toMatchObject({
      duels_played: 0,
      duels_unplayed: 1,
    });
    expect(complete.state).toEqual({
      kind: "gridrush-king-of-the-hill",
      version: 1,
      hills: {
        [HILL_ID]: {
          policy_version_id: B.version,
          player_id: B.player,
          reign: 1,
          crowned_in_round: 1,
          crown_changes: 1,
        },
      },
    });
    // Contenders become active; the older version of A's player is benched.
    const events = complete.policy_membership_events as {
      league_policy_membership_id: string;
      substatus: string;
    }[];
    expect(events.map((e) => [e.league_policy_membership_id, e.substatus])).toEqual([
      [A.membership, "active"],
      [B.membership, "active"],
      [C.membership, "active"],
      [A_OLD.membership, "benched"],
    ]);
    expect(await talk.closed).toBe(1000);
    expect(await commissioner.exit).toBe(0);
    expect(commissioner.output()).toContain(
      "duel 1 failed (crashed: the game exited 3); playing it again with a new seed",
    );
  });

  it("passes the crown through the state blob: a defence extends the reign, a win takes it", async () => {
    // Round 1: no state; A holds the hill by default and beats B.
    const one = await round(1, [A, B], null, [A]);
    expect(ranking(one).map((r) => r.policy_version_id)).toEqual([A.version, B.version]);
    // Round 2 lists B first: only the state makes A the king. A defends.
    const two = await round(2, [B, A], one.state, [A]);
    expect(ranking(two)[0]).toMatchObject({
      policy_version_id: A.version,
      rank: 1,
      result_metadata: { role: "king", reign: 2 },
    });
    // Round 3: B beats the king and is crowned; A ranks second.
    const three = await round(3, [B, A], two.state, [B]);
    expect(ranking(three).map((r) => [r.policy_version_id, r.result_metadata.role])).toEqual([
      [B.version, "king"],
      [A.version, "dethroned"],
    ]);
    expect(three.state).toMatchObject({
      hills: {
        [HILL_ID]: {
          policy_version_id: B.version,
          reign: 1,
          crowned_in_round: 3,
          crown_changes: 1,
        },
      },
    });
  });

  it("keeps the king when the platform refuses a duel, and ends without round_complete on round_abort", async () => {
    const commissioner = await startCommissioner();
    const talk = await Conversation.open(commissioner);
    talk.send(roundStart(1, [A, B, C]));
    const refused = (await talk.expect("schedule_episodes")).episodes as Scheduled[];
    const id = refused[0]?.request_id ?? "";
    talk.send({
      type: "episodes_rejected",
      request_ids: [id],
      errors: { [id]: `unknown policy_version_id: ${B.version}` },
    });
    // No retry of a refusal: A, still king, meets C.
    const next = await scheduled(talk);
    expect(next.policy_version_ids).toEqual([C.version, A.version]);
    talk.send({ type: "round_abort", reason: "league disabled by admin" });
    expect(await talk.closed).toBe(1000);
    expect(await commissioner.exit).toBe(0);
    expect(talk.received.map((m) => m.type)).not.toContain("round_complete");
    expect(commissioner.output()).toContain(
      "round aborted by the platform: league disabled by admin",
    );
  });

  it("ignores a (large) state blob it did not write, and crowns a lone contender without a duel", async () => {
    // Another commissioner's 2 MiB of state: past a player message's 1 MiB, within the protocol.
    const complete = await round(4, [C], { rounds: 3, notes: "x".repeat(2 * 1024 * 1024) }, []);
    expect(ranking(complete)).toEqual([
      expect.objectContaining({
        policy_version_id: C.version,
        rank: 1,
        result_metadata: expect.objectContaining({ reign: 1 }),
      }),
    ]);
  });
});
