// A built-in round ends the way a coworld commissioner's does: with the built-in's round_complete.
// Once the round's episodes are final the platform resumes it with a round_start carrying the
// round's completed episodes; its rankings become the round's results and its membership events
// are the league's promotion and relegation. Every message validates against the contract and,
// where a fetched Metta-AI/coworld and python3 with pydantic 2 are here, upstream's own models.
import { subscribe, unsubscribe } from "node:diagnostics_channel";

import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  CommissionerToPlatform,
  PlatformToCommissioner,
  type CompetitionEvent,
  type LeaguePolicyMembership,
  type RoundComplete,
  type RoundStart,
} from "@gauntlet/core";

import { client } from "../../../../testing/http.ts";
import { playRound, STRENGTH, trigger, useRoundServers } from "../../../../testing/rounds.ts";
import { type TestServer } from "../../../../testing/start-server.ts";
import { createTestLeague, scriptedRunner } from "../../../../testing/test-league.ts";
import { checkWithUpstream, upstreamMissing } from "../../../../testing/upstream-protocol.ts";
import { toWire } from "../wire-ids.ts";
import { builtinMessages, type BuiltinMessage } from "./builtin-messages.ts";

const servers = useRoundServers();
let manual: TestServer;
beforeAll(() => {
  manual = servers.manual();
});

let heard: BuiltinMessage[] = [];
const listen = (message: unknown) => heard.push(message as BuiltinMessage);
beforeEach(() => {
  heard = [];
  subscribe(builtinMessages.name, listen);
});
afterEach(() => {
  unsubscribe(builtinMessages.name, listen);
});

/** The end of the round whose id the round_start names: its resumed round_start and its answer. */
function endOf(roundId: string): { start: RoundStart; complete: RoundComplete } {
  const at = heard.findIndex(
    (h) =>
      h.direction === "sent" &&
      (h.message as { type: string }).type === "round_start" &&
      (h.message as RoundStart).round_id === toWire(roundId) &&
      (h.message as RoundStart).completed_episodes.length > 0,
  );
  const start = heard[at]?.message as RoundStart | undefined;
  const complete = heard[at + 1]?.message as RoundComplete | undefined;
  if (!start || !complete) throw new Error(`no end of ${roundId} was heard`);
  expect(complete.type).toBe("round_complete");
  return { start, complete };
}

async function twoDivisionLeague() {
  const tl = await createTestLeague(manual, {
    divisions: [
      { name: "Premier", level: 1 },
      { name: "Challenger", level: 2 },
    ],
    settings: { promotion: { promote: 1, relegate: 1, every_rounds: 1 } },
  });
  const [premier, challenger] = tl.divisions;
  if (!premier || !challenger) throw new Error("divisions");
  const players = new Map<string, Awaited<ReturnType<typeof tl.addPlayer>>>();
  for (const [name, division] of [
    ["Ada", premier],
    ["Cy", premier],
    ["Bo", challenger],
    ["Dee", challenger],
  ] as const) {
    const player = await tl.addPlayer(name);
    players.set(name, player);
    await tl.submit(player, { preferences: { division_id: division.id } });
  }
  return { tl, premier, challenger, players };
}

describe("a built-in round's end over the protocol", () => {
  it("is the built-in's round_complete: its rankings are the round's results, its events the promotion", async () => {
    const runner = await scriptedRunner(manual);
    const { tl, premier, challenger, players } = await twoDivisionLeague();
    const lower = await trigger(manual, tl, { division_id: challenger.id });
    await playRound(manual, runner, lower.rounds[0]?.id ?? "", STRENGTH);
    const upperId = (await trigger(manual, tl, { division_id: premier.id })).rounds[0]?.id ?? "";
    const played = await playRound(manual, runner, upperId, STRENGTH);
    expect(played.status).toBe("completed");

    const { start, complete } = endOf(upperId);
    // Resumed with every episode the round played, as the protocol's episode results.
    const episodes = await client(manual.url, tl.commissioner.token).get<{ entries: unknown[] }>(
      `/v2/episode-requests?round_id=${upperId}&status=completed&limit=100`,
    );
    expect(episodes.body.entries.length).toBeGreaterThan(0);
    expect(start.completed_episodes).toHaveLength(episodes.body.entries.length);
    expect(start.completed_episodes.every((e) => e.scores.length === 2)).toBe(true);

    // The rankings it answered are the round's results as the API serves them.
    const rankings = complete.results.flatMap((r) =>
      r.rankings.map((e) => [e.player_id, e.rank, e.score]),
    );
    expect(complete.results.map((r) => r.division_id)).toEqual([toWire(premier.id)]);
    expect(rankings.sort()).toEqual(
      played.results.map((r) => [r.player?.id, r.rank, r.score]).sort(),
    );
    expect(rankings.find((r) => r[0] === players.get("Ada")?.id)?.[1]).toBe(1);

    // Its membership events move Cy (last of Premier) down and Bo (top of Challenger) up.
    const moves = complete.policy_membership_events.map((e) => [
      e.reason,
      e.from_division_id,
      e.to_division_id,
    ]);
    expect(moves.sort()).toEqual(
      [
        ["promotion", toWire(challenger.id), toWire(premier.id)],
        ["relegation", toWire(premier.id), toWire(challenger.id)],
      ].sort(),
    );
    const cy = await client(manual.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?player_id=${players.get("Cy")?.id ?? ""}`,
    );
    expect(cy.body.map((m) => m.division.id)).toEqual([challenger.id]);
    const feed = await client(manual.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    expect(
      feed.body
        .filter((e) => e.event_type === "player_promoted" || e.event_type === "player_relegated")
        .map((e) => [e.event_type, e.player?.name, e.payload["rule"]])
        .sort(),
    ).toEqual([
      ["player_promoted", "Bo", "rounds"],
      ["player_relegated", "Cy", "rounds"],
    ]);

    for (const h of heard) {
      const schema = h.direction === "sent" ? PlatformToCommissioner : CommissionerToPlatform;
      expect(schema.safeParse(h.message).success, JSON.stringify(h.message)).toBe(true);
    }
  });

  it("outside the promotion period it ranks the round and moves nobody", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual, {
      settings: { promotion: { promote: 1, relegate: 1, every_rounds: 2 } },
    });
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    const id = (await trigger(manual, tl)).rounds[0]?.id ?? "";
    const played = await playRound(manual, runner, id, STRENGTH);
    const { complete } = endOf(id);
    expect(complete.policy_membership_events).toEqual([]);
    expect(complete.results[0]?.rankings).toHaveLength(played.results.length);
  });

  it("that cannot end its round fails it, unscored, and the division plays on", async () => {
    const runner = await scriptedRunner(manual);
    const tl = await createTestLeague(manual);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const id = (await trigger(manual, tl)).rounds[0]?.id ?? "";
    // The round's pools lost their members: the built-in finds no seat for the players it ranks.
    await manual.server.store.db
      .updateTable("pools")
      .set({ members: "[]" })
      .where("round_id", "=", id)
      .execute();
    const ended = await playRound(manual, runner, id, STRENGTH);
    expect(ended).toMatchObject({ status: "failed", results: [] });
    expect(ended.error).toMatch(/^the built-in commissioner could not end the round: /);
    const next = await trigger(manual, tl);
    expect(next.rounds[0]?.id).not.toBe(id);
    expect((await playRound(manual, runner, next.rounds[0]?.id ?? "", STRENGTH)).status).toBe(
      "completed",
    );
  });

  it.skipIf(upstreamMissing !== null)(
    "every message of a round's end validates against upstream's models",
    async () => {
      const runner = await scriptedRunner(manual);
      const { tl, premier } = await twoDivisionLeague();
      const id = (await trigger(manual, tl, { division_id: premier.id })).rounds[0]?.id ?? "";
      await playRound(manual, runner, id, STRENGTH);
      const { start, complete } = endOf(id);
      expect(complete.policy_membership_events.length).toBeGreaterThan(0);
      const report = checkWithUpstream([start, complete]);
      expect(report.refused).toEqual([]);
      expect(report.checked["round_start"]).toBe(1);
      expect(report.checked["round_complete"]).toBe(1);
    },
  );
});
