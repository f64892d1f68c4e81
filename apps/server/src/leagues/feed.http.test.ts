// The competition feed over real HTTP: what a round leaves in it, its filters, and who sees what.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, RoundDetail, TriggerRoundResponse } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
let roundId: string;

async function feed(query: string, token?: string): Promise<CompetitionEvent[]> {
  const res = await client(t.url, token).get<CompetitionEvent[]>(`/v2/competition-events?${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  await tl.submit(await tl.addPlayer("Ada"));
  await tl.submit(await tl.addPlayer("Bo"));
  const started = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  roundId = started.body.rounds[0]?.id ?? "";
  await (await scriptedRunner(t)).runQueued(byStrength({ Ada: 5, Bo: 3 }));
  await eventually(
    "the round to settle",
    async () =>
      (await client(t.url).get<RoundDetail>(`/v2/rounds/${roundId}`)).body.status === "completed",
  );
});
afterAll(async () => {
  await t?.close();
});

describe("GET /v2/competition-events", () => {
  it("tells a round's story newest first, with headlines and references", async () => {
    const events = await feed(`league_id=${tl.league.id}`);
    expect(events.map((e) => e.event_type).reverse()).toEqual([
      "submission_placed",
      "standings_changed",
      "submission_placed",
      "standings_changed",
      "round_started",
      "episode_completed",
      "round_completed",
      "standings_changed",
    ]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const episode = events.find((e) => e.event_type === "episode_completed");
    expect(episode).toMatchObject({
      audience: "public",
      round_id: roundId,
      league: { id: tl.league.id },
      division: { id: tl.divisions[0]?.id },
    });
    expect(episode?.headline).toMatch(/Ada 5/);
    expect(episode?.payload.seats).toHaveLength(2);
    const placed = events.find((e) => e.event_type === "submission_placed");
    expect(placed?.player?.name).toBe("Bo");
    expect(placed?.policy_version?.name).toMatch(/^greedy-/);
  });

  it("filters by type, division, round, player, policy version and audience, and bounds limit", async () => {
    expect(
      (await feed(`league_id=${tl.league.id}&event_type=standings_changed`)).map(
        (e) => e.event_type,
      ),
    ).toEqual(["standings_changed", "standings_changed", "standings_changed"]);
    expect((await feed(`round_id=${roundId}`)).map((e) => e.event_type).sort()).toEqual([
      "episode_completed",
      "round_completed",
      "round_started",
      "standings_changed",
    ]);
    const bo = (await feed(`league_id=${tl.league.id}&event_type=submission_placed&limit=1`))[0];
    expect((await feed(`player_id=${bo?.player?.id ?? ""}`)).map((e) => e.event_type)).toEqual([
      "submission_placed",
    ]);
    expect(await feed(`policy_version_id=${bo?.policy_version?.id ?? ""}`)).toHaveLength(1);
    expect(await feed(`league_id=${tl.league.id}&audience=owner`)).toEqual([]);
    expect(await feed(`division_id=${tl.divisions[0]?.id ?? ""}&limit=2`)).toHaveLength(2);
    const bad = await client(t.url).get<{ detail: { loc: string[] }[] }>(
      "/v2/competition-events?limit=501&event_type=gossip",
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d) => d.loc.join(".")).sort()).toEqual([
      "query.event_type",
      "query.limit",
    ]);
  });

  it("shows a private league's events to its commissioner, and owner events to their user and the commissioner only", async () => {
    const hidden = await createTestLeague(t, { public: false });
    await hidden.submit(await hidden.addPlayer("Cy"));
    expect(await feed(`league_id=${hidden.league.id}`)).toEqual([]);
    expect(
      (await feed(`league_id=${hidden.league.id}`, hidden.commissioner.token)).length,
    ).toBeGreaterThan(0);

    const member = await t.newUser();
    const dee = await tl.addPlayer("Dee", { owner: member });
    await tl.submit(dee, {}, member.token);
    const twice = await tl.submit(dee, {}, member.token);
    expect(twice.status).toBe("rejected");
    const ownerEvents = (token?: string) =>
      feed(`league_id=${tl.league.id}&event_type=submission_rejected`, token);
    expect((await ownerEvents(member.token)).map((e) => e.audience)).toEqual(["owner"]);
    expect(await ownerEvents(tl.commissioner.token)).toHaveLength(1);
    expect(await ownerEvents()).toEqual([]);
    expect(await ownerEvents((await t.newUser()).token)).toEqual([]);
    expect(await ownerEvents(t.adminToken)).toHaveLength(1);
  });
});
