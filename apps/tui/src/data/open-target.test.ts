// The first screen's target: from the one request when it answers, else resolved name by name,
// which says what did not match.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient, type Gauntlet } from "@gauntlet/sdk";
import {
  createTestLeague,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import { openTarget } from "./resolve-target.ts";

let server: TestServer;
let tl: TestLeague;
let client: Gauntlet;

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(server);
  await tl.submit(await tl.addPlayer("Ada"));
  client = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: tl.commissioner.token,
  });
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe("openTarget", () => {
  it("takes the league, division and standings from the one request", async () => {
    const flags = { league: tl.league.name };
    const opening = client.divisions.standingsView({ league: tl.league.name });
    const target = await openTarget(client, flags, opening);
    expect(target).toMatchObject({
      found: true,
      league: { id: tl.league.id },
      division: { id: tl.divisions[0]?.id },
    });
    expect(target.found && target.standings?.map((r) => r.player_name)).toEqual(["Ada"]);
  });

  it("resolves the names itself when the request failed, and says which did not match", async () => {
    const flags = { league: "no such league" };
    const opening = client.divisions.standingsView(flags);
    await expect(openTarget(client, flags, opening)).resolves.toEqual({
      found: false,
      message: 'no league you can see matches --league "no such league"',
    });
  });
});
