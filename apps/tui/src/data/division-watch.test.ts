// The division's live data against a real server on a free port, reached through a network that
// fails at first: the trouble is on the status line while it lasts and gone once the server answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import {
  createTestLeague,
  PATIENCE_MS,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import { DivisionWatch } from "./division-watch.ts";
import { Notices } from "./notices.ts";

let server: TestServer;
let tl: TestLeague;

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(server);
}, 60_000);
afterAll(async () => {
  await server.close();
});

async function until(what: string, holds: () => boolean): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a division watch", () => {
  it("clears the trouble it reported once the server answers again", async () => {
    // The first requests find no network, as while a laptop wakes up.
    let unreachable = 3;
    const client = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: server.url,
      token: tl.commissioner.token,
      retries: 0,
      fetch: (input, init) =>
        unreachable-- > 0 ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init),
    });
    const notices = new Notices();
    const shown: string[] = [];
    notices.subscribe(() => shown.push(notices.latest?.text ?? "(clear)"));
    const division = tl.divisions[0];
    if (!division) throw new Error("the test league has a division");
    const watch = new DivisionWatch({
      client,
      league: tl.league,
      division,
      notices,
      retryBaseMs: 50,
    });
    watch.start();
    try {
      await until(
        "the standings, and the status line clear",
        () => watch.getSnapshot().standings !== null && notices.latest === null,
      );
      expect(shown.length).toBeGreaterThan(1);
      expect(shown.at(-1)).toBe("(clear)");
    } finally {
      watch.stop();
    }
  });

  it("shows standings given at the start at once, and then reads only the pairwise results", async () => {
    const paths: string[] = [];
    const client = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: server.url,
      token: tl.commissioner.token,
      fetch: (input, init) => {
        paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    });
    const division = tl.divisions[0];
    if (!division) throw new Error("the test league has a division");
    const watch = new DivisionWatch({
      client,
      league: tl.league,
      division,
      notices: new Notices(),
      standings: null,
    });
    expect(watch.getSnapshot().standings?.rows).toEqual([]);
    watch.start();
    try {
      await until("the pairwise results", () => watch.getSnapshot().pairwise !== null);
      expect(paths).toContain(`/v2/divisions/${division.id}/pairwise`);
      expect(paths).not.toContain(`/v2/divisions/${division.id}/leaderboard`);
    } finally {
      watch.stop();
    }
  });
});
