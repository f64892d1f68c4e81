// A division says how it works (`commissioner_description`): the built-in ladder describes its own
// settings, a coworld's commissioner its manifest entry; what the league's commissioner wrote wins.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Division } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

async function division(id: string): Promise<Division> {
  return (await client(t.url).get<Division>(`/v2/divisions/${id}`)).body;
}

describe("a division's commissioner_description", () => {
  it("describes the built-in ladder's rounds, seating, rating and promotion", async () => {
    const tl = await createTestLeague(t, {
      settings: {
        seating: "swiss_neighbor",
        ranking: "elo",
        round_interval_minutes: 5,
        promotion: { promote: 1, relegate: 2, every_rounds: 3 },
      },
    });
    const d = await division(tl.divisions[0]?.id ?? "");
    expect(d.commissioner_description).toMatchObject({
      round_schedule: expect.stringMatching(/every 5 minutes/),
      round_structure: expect.stringMatching(/^Swiss: /),
      scoring_mechanics: expect.stringMatching(/^Elo \(start 1500, K 32\)/),
      leaderboard_rules: expect.stringMatching(
        /Every 3 rounds the best player goes up a division and the last 2 players go down\./,
      ),
    });
    // The listing says the same as the one division.
    const listed = (await client(t.url).get<Division[]>(`/v2/divisions?league_id=${tl.league.id}`))
      .body[0];
    expect(listed?.commissioner_description).toEqual(d.commissioner_description);
  });

  it("keeps what the league's commissioner wrote, field by field", async () => {
    const tl = await createTestLeague(t);
    const premier = tl.divisions[0];
    const res = await client(t.url, tl.commissioner.token).put(
      `/v2/leagues/${tl.league.id}/divisions`,
      [
        {
          id: premier?.id,
          name: "Premier",
          level: 1,
          commissioner_description: { round_structure: "Our own words." },
        },
      ],
    );
    expect(res.status).toBe(200);
    const d = await division(premier?.id ?? "");
    expect(d.commissioner_description.round_structure).toBe("Our own words.");
    expect(d.commissioner_description.round_schedule).toMatch(
      /as soon as the previous one settles/,
    );
  });

  it("describes a coworld commissioner by its manifest entry", async () => {
    const tl = await createTestLeague(t, {
      manifest: {
        commissioner: [
          {
            type: "commissioner",
            id: "hill",
            name: "King of the hill",
            image: "hill:latest",
            description: "The champion plays every challenger; a win takes the crown.",
          },
        ],
      },
      commissionerConfig: { commissioner_runnable_id: "hill" },
    });
    const d = await division(tl.divisions[0]?.id ?? "");
    expect(d.commissioner_description).toMatchObject({
      round_structure: "The champion plays every challenger; a win takes the crown.",
      round_schedule: expect.stringMatching(/coworld's commissioner is asked/),
      leaderboard_rules: expect.stringMatching(/as the commissioner reports/),
    });
  });
});
