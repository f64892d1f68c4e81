// A coworld commissioner's membership moves in the feed say where its players ended up: a round
// whose events move a player away and back again announces no promotion (the feed is not a
// place its commissioner writes headlines about players who did not move).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, Division, LeaguePolicyMembership } from "@gauntlet/core";

import {
  commissionedLeague,
  FAST_COMMISSIONER_ENV,
  untilRound,
} from "../../../testing/commissioned-league.ts";
import { client } from "../../../testing/http.ts";
import { ReverseCommissioner } from "../../../testing/scripted-commissioner.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { scriptedRunner, type ScriptedRunner } from "../../../testing/test-league.ts";
import type { CommissionerLauncher } from "./channel.ts";
import { memoryChannel } from "./memory-channel.ts";

interface Event {
  league_policy_membership_id: string;
  from_division_id?: string | null;
  to_division_id?: string | null;
}

/** The reverse commissioner, whose round_complete moves its winner up and then back down. */
const bouncing: CommissionerLauncher = {
  open() {
    const inner = new ReverseCommissioner(() => "fair");
    return Promise.resolve(
      memoryChannel({
        onMessage(message, reply) {
          inner.onMessage(message, (answer) => {
            const m = answer as { type: string; policy_membership_events?: Event[] };
            if (m.type !== "round_complete" || !m.policy_membership_events?.length)
              return reply(answer);
            const back = m.policy_membership_events.map((e) => ({
              ...e,
              from_division_id: e.to_division_id,
              to_division_id: e.from_division_id,
              reason: "changed its mind",
            }));
            reply({ ...m, policy_membership_events: [...m.policy_membership_events, ...back] });
          });
        },
      }),
    );
  },
};

let t: TestServer;
let runner: ScriptedRunner;
beforeAll(async () => {
  t = await startTestServer({
    env: FAST_COMMISSIONER_ENV,
    commissionerLauncher: bouncing,
  });
  runner = await scriptedRunner(t);
});
afterAll(async () => {
  await t?.close();
});

describe("a coworld commissioner's moves in the feed", () => {
  it("announce no promotion for a player moved up and back in one round_complete", async () => {
    const tl = await commissionedLeague(t);
    await untilRound(t, runner, tl, "completed");
    const divisions = (
      await client(t.url).get<Division[]>(`/v2/divisions?league_id=${tl.league.id}`)
    ).body;
    const open = divisions.find((d) => d.name === "Open");
    const memberships = (
      await client(t.url, tl.commissioner.token).get<LeaguePolicyMembership[]>(
        `/v2/league-policy-memberships?league_id=${tl.league.id}`,
      )
    ).body;
    // Everyone is where they started.
    expect(memberships.map((m) => m.division.id)).toEqual(memberships.map(() => open?.id));
    const feed = await client(t.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    expect(
      feed.body
        .filter((e) => e.event_type === "player_promoted" || e.event_type === "player_relegated")
        .map((e) => e.headline),
    ).toEqual([]);
  });
});
