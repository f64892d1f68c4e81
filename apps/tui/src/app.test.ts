// The whole app against a real server on a free port: where it opens (a catalog of one league
// opens that league, several are listed) and that Esc still reaches the list of leagues.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { createTestLeague, startTestServer, type TestServer } from "@gauntlet/server/testing";

import { KEYS, renderAt } from "../testing/ink.ts";
import { App } from "./app.ts";
import { Notices } from "./data/notices.ts";

let server: TestServer;
let token = "";
let leagueName = "";

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  const only = await createTestLeague(server);
  token = only.commissioner.token;
  leagueName = only.league.name;
}, 60_000);
afterAll(async () => {
  await server.close();
});
afterEach(cleanup);

function mount() {
  const client = createClient({ env: {}, useSavedCredentials: false, baseUrl: server.url, token });
  return renderAt(
    h(App, {
      client,
      notices: new Notices(),
      server: server.url,
      flags: {},
      onExit: () => undefined,
    }),
    120,
    30,
  );
}

describe("where the app opens", () => {
  it("with exactly one league, on that league's top division; Esc lists the one league", async () => {
    const screen = mount();
    const frame = await screen.waitFor("the league's standings", (f) =>
      f.includes("Standings · Premier"),
    );
    expect(frame).toContain(leagueName);
    await screen.press(KEYS.escape);
    const list = await screen.waitFor("the leagues", (f) => f.includes("1 on http://"));
    expect(list).toContain(leagueName);
    expect(list).not.toContain("Standings · Premier");
  });

  it("with several leagues, on the list of them", async () => {
    const second = await createTestLeague(server);
    const screen = mount();
    const frame = await screen.waitFor("the leagues", (f) => f.includes(second.league.name));
    expect(frame).toContain(leagueName);
    expect(frame).not.toContain("Standings ·");
  }, 60_000);
});
