// `GET /v2/leagues` answers a page at a time (oldest first, `limit` 100 unless given, up to 500),
// so many small public leagues cannot make one huge listing; the pages together are every league.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { League } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";

const LEAGUES = 105;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("the leagues listing", () => {
  it("pages: 100 by default, limit and offset walk the rest, and the pages together are every league", async () => {
    const first = await createTestLeague(t);
    const api = client(t.url, first.commissioner.token);
    const game = first.league.game.id;
    for (let i = 1; i < LEAGUES; i += 1) {
      const made = await api.post<League>("/v2/leagues", {
        name: `Small league ${i}`,
        game_id: game,
        public: true,
        divisions: [{ name: "Only", level: 1 }],
      });
      expect(made.status, made.text).toBe(201);
    }
    const anonymous = client(t.url);
    const whole = await anonymous.get<League[]>(`/v2/leagues?game_id=${game}&limit=500`);
    expect(whole.body).toHaveLength(LEAGUES);
    const byDefault = await anonymous.get<League[]>(`/v2/leagues?game_id=${game}`);
    expect(byDefault.body.map((l) => l.id)).toEqual(whole.body.slice(0, 100).map((l) => l.id));
    // The pages end to end are the whole listing, in the same order.
    const page = await anonymous.get<League[]>(`/v2/leagues?game_id=${game}&limit=10&offset=100`);
    expect(page.body.map((l) => l.id)).toEqual(whole.body.slice(100).map((l) => l.id));
    expect((await anonymous.get(`/v2/leagues?limit=501`)).status).toBe(422);
  }, 120_000);
});
