// GET /v2/standings: a division by its league's and its own name or id, with the league's
// divisions and the standings, in one read (the first screen of `gauntlet watch`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DivisionStandingsView, LeaderboardRow } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t, {
    divisions: [
      { name: "Premier", level: 1 },
      { name: "Second", level: 2 },
      { name: "Secret", level: 3, hidden: true },
    ],
  });
  await tl.submit(await tl.addPlayer("Ada"));
});
afterAll(async () => {
  await t?.close();
});

const view = (query: string, token?: string) =>
  client(t.url, token).get<DivisionStandingsView>(`/v2/standings?${query}`);
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe("GET /v2/standings", () => {
  it("names the league (whole name or prefix, any case) and gives its top division with the standings", async () => {
    const board = await client(t.url).get<LeaderboardRow[]>(
      `/v2/divisions/${tl.divisions[0]?.id ?? ""}/leaderboard?include_recent_rounds=true`,
    );
    for (const league of [tl.league.name, tl.league.name.toUpperCase(), tl.league.id]) {
      const found = await view(q({ league }));
      expect(found.status).toBe(200);
      expect(found.body.league.id).toBe(tl.league.id);
      expect(found.body.division.name).toBe("Premier");
      expect(found.body.divisions.map((d) => d.name)).toEqual(["Premier", "Second"]);
      expect(found.body.leaderboard).toEqual(board.body);
    }
    const prefix = await view(q({ league: tl.league.name.slice(0, -2), division: "sec" }));
    expect(prefix.body.division.name).toBe("Second");
    expect(prefix.body.leaderboard).toBeNull();
  });

  it("finds a division by id alone, and by name alone", async () => {
    const second = tl.divisions[1]?.id ?? "";
    const byId = await view(q({ division: second }));
    expect(byId.status).toBe(200);
    expect([byId.body.league.id, byId.body.division.id]).toEqual([tl.league.id, second]);
    const byName = await view(q({ league: tl.league.id, division: "SECOND" }));
    expect(byName.body.division.id).toBe(second);
  });

  it("answers 404 for what the caller cannot see or nothing matches, 422 without a name", async () => {
    expect((await view(q({ league: tl.league.id, division: "Secret" }))).status).toBe(404);
    expect((await view(q({ division: tl.divisions[2]?.id ?? "" }))).status).toBe(404);
    expect((await view(q({ league: "no such league anywhere" }))).status).toBe(404);
    expect((await view(q({ league: tl.league.name, division: "Third" }))).status).toBe(404);
    expect((await view("")).status).toBe(422);
  });
});
