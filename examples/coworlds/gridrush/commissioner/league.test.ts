// The commissioner as a real process over a real WebSocket: the league phase (the migration
// handshake, scheduling), its health and its refusals. Every message it sends is checked against
// @gauntlet/core's schemas of the protocol (conversation.ts).
import { afterEach, describe, expect, it } from "vitest";

import { Conversation, startCommissioner, stopAll } from "./conversation.ts";
import {
  A,
  A_OLD,
  B,
  C,
  DAILY_ID,
  hill,
  HILL_ID,
  league,
  membership,
  STAGING_ID,
} from "./fixture.ts";

afterEach(stopAll);

describe("the GridRush commissioner's process", () => {
  it("answers /healthz, serves /round only, and one session per process", async () => {
    const commissioner = await startCommissioner();
    const health = await fetch(`http://127.0.0.1:${commissioner.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await fetch(`http://127.0.0.1:${commissioner.port}/round`)).status).toBe(404);
    const first = await Conversation.open(commissioner);
    await expect(Conversation.open(commissioner)).rejects.toThrow();
    first.close();
    expect(await commissioner.exit).toBe(0);
    expect(commissioner.output()).toContain("refused a second connection to /round");
  });
});

describe("the league phase", () => {
  it("migrates the league to one Hill division and moves every live membership onto it", async () => {
    const commissioner = await startCommissioner();
    const talk = await Conversation.open(commissioner);
    talk.send({
      type: "league_migration_config_request",
      league,
      divisions: [
        { id: STAGING_ID, name: "Qualifiers", level: -1, type: "staging" },
        { id: DAILY_ID, name: "Daily", level: 1, type: "competition" },
      ],
    });
    const config = await talk.expect("league_migration_config_response");
    expect(config.divisions).toEqual([
      expect.objectContaining({
        name: "Hill",
        type: "competition",
        previous_name: "Daily",
      }),
    ]);
    // The platform renamed Daily to Hill (same id) and will archive Qualifiers.
    talk.send({
      type: "league_migration_request",
      league,
      divisions: [{ ...hill, id: DAILY_ID }],
      memberships: [
        membership(A, DAILY_ID),
        membership(B, STAGING_ID, { status: "qualifying" }),
        membership(C, STAGING_ID, { status: "retired" }),
      ],
    });
    const migration = await talk.expect("league_migration_response");
    expect(migration.policy_membership_events).toEqual([
      expect.objectContaining({
        league_policy_membership_id: B.membership,
        from_division_id: STAGING_ID,
        to_division_id: DAILY_ID,
        status: "qualifying",
      }),
    ]);
    talk.close();
    expect(await commissioner.exit).toBe(0);
  });

  it("asks for a round of the hill when two contenders wait and none is in flight", async () => {
    const commissioner = await startCommissioner();
    const talk = await Conversation.open(commissioner);
    const request = (status: string) => ({
      type: "schedule_rounds_request",
      league,
      divisions: [hill],
      active_memberships: [membership(A), membership(B), membership(C), membership(A_OLD)],
      recent_rounds: [
        {
          id: "00000000-0000-4000-8000-000000000071",
          division_id: HILL_ID,
          round_number: 1,
          status: "completed",
          round_config: {},
        },
        {
          id: "00000000-0000-4000-8000-000000000072",
          division_id: HILL_ID,
          round_number: 2,
          status,
          round_config: {},
        },
      ],
    });
    talk.send(request("completed"));
    const due = await talk.expect("schedule_rounds_response");
    expect(due.rounds).toEqual([
      {
        division_id: HILL_ID,
        round_config: {
          stages: [{ label: "Challenges", num_episodes: 2 }],
          // The older version of A's player is not a contender.
          entrant_policy_version_ids: [A.version, B.version, C.version],
        },
        notes: "king of the hill: 2 challenge(s)",
        idempotency_key: `hill-${HILL_ID}-round-3`,
      },
    ]);
    // In the same session, the next tick finds round 2 still running: no round is due.
    talk.send(request("running"));
    expect((await talk.expect("schedule_rounds_response")).rounds).toEqual([]);
    talk.send({ ...request("completed"), active_memberships: [membership(A)] });
    expect((await talk.expect("schedule_rounds_response")).rounds).toEqual([]);
    talk.close();
    expect(await commissioner.exit).toBe(0);
    expect(commissioner.output()).toContain("1 contender(s) on the hill; a round needs 2");
  });
});

describe("a message it cannot understand", () => {
  const cases: [string, string, string][] = [
    ["not JSON", "{round_start", "message: is not JSON"],
    [
      "an unknown type",
      JSON.stringify({ type: "hello" }),
      'message.type: "hello" is not a platform message',
    ],
    [
      "a round_start without memberships",
      JSON.stringify({
        type: "round_start",
        round_id: "r",
        round_number: 1,
        league,
        divisions: [hill],
        recent_results: [],
        variants: [],
      }),
      "round_start.memberships: must be an array",
    ],
    [
      "an episode_result before round_start",
      JSON.stringify({ type: "episode_result", request_id: "x", scores: [] }),
      "message.type: episode_result before round_start",
    ],
  ];
  for (const [what, frame, line] of cases)
    it(`ends the session on ${what}, saying why`, async () => {
      const commissioner = await startCommissioner();
      const talk = await Conversation.open(commissioner);
      talk.sendRaw(frame);
      expect(await talk.closed).toBe(1008);
      expect(await commissioner.exit).toBe(1);
      expect(talk.pending).toBe(0);
      expect(commissioner.output()).toContain(`malformed message (${line}); ending the session`);
    });

  it("refuses a message past the protocol's 16 MiB, saying so", async () => {
    const commissioner = await startCommissioner();
    const talk = await Conversation.open(commissioner);
    talk.sendRaw(JSON.stringify({ type: "round_abort", reason: "x".repeat(16 * 1024 * 1024) }));
    await talk.closed;
    expect(await commissioner.exit).toBe(1);
    expect(commissioner.output()).toContain(
      `refused a message past ${16 * 1024 * 1024} bytes; ending the session`,
    );
  });
});
