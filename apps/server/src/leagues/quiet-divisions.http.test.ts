// A division whose rounds stop says why in its feed, once, and says it again only after a round
// has run: over real HTTP with the scheduler ticking.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, RoundPage } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER_TICK_MS: "30" } });
});
afterAll(async () => {
  await t?.close();
});

async function quietEvents(divisionId: string): Promise<CompetitionEvent[]> {
  const res = await client(t.url).get<CompetitionEvent[]>(
    `/v2/competition-events?division_id=${divisionId}&event_type=division_quiet`,
  );
  expect(res.status).toBe(200);
  return res.body;
}

describe("a quiet division", () => {
  it("says once why no round runs, and nothing more while nothing changes", async () => {
    const tl = await createTestLeague(t, {
      settings: { seating: "adaptive", min_players: 3 },
    });
    const division = tl.divisions[0]?.id ?? "";
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const [first] = await eventually("the quiet notice", async () => {
      const events = await quietEvents(division);
      return events.length > 0 ? events : null;
    });
    expect(first).toMatchObject({
      event_type: "division_quiet",
      payload: { reason: "below_min_players" },
    });
    expect(first?.headline).toContain("no rounds");
    // Many ticks later: still the one notice, and no round.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await quietEvents(division)).toHaveLength(1);
    const rounds = await client(t.url).get<RoundPage>(`/v2/rounds?division_id=${division}`);
    expect(rounds.body.total_count).toBe(0);
  });
});
