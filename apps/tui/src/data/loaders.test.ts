// The episode screen's loader against a real server on a free port: an episode that ended comes
// with which seats left a log, and a failure to read that list is the screen's to show, not an
// empty list (which would say no seat left one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient, isAPIConnectionError } from "@gauntlet/sdk";
import {
  byStrength,
  createTestLeague,
  scriptedRunner,
  startTestServer,
  type TestLeague,
  type TestServer,
} from "@gauntlet/server/testing";

import { loadEpisode } from "./loaders.ts";

let server: TestServer;
let tl: TestLeague;
let episodeId = "";

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(server);
  const ada = await tl.addPlayer("Ada");
  const bob = await tl.addPlayer("Bob");
  await tl.submit(ada);
  await tl.submit(bob);
  const trigger = await fetch(`${server.url}/v2/leagues/${tl.league.id}/trigger-round`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${tl.commissioner.token}`,
      "content-type": "application/json",
    },
    body: "{}",
  });
  if (!trigger.ok) throw new Error(`trigger-round: ${trigger.status} ${await trigger.text()}`);
  const [job] = await (await scriptedRunner(server)).runQueued(byStrength({ Ada: 2, Bob: 1 }));
  if (!job) throw new Error("the round queued an episode");
  episodeId = job.episode_request_id;
}, 60_000);
afterAll(async () => {
  await server.close();
});

/** A client whose network fails the requests `fails` picks (as a dropped connection would). */
function clientFailing(fails: (url: string) => boolean) {
  return createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: tl.commissioner.token,
    retries: 0,
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return fails(url) ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init);
    },
  });
}

describe("loadEpisode", () => {
  it("brings an ended episode with its seats", async () => {
    const data = await loadEpisode(
      clientFailing(() => false),
      episodeId,
      new AbortController().signal,
    );
    expect(data.episode.id).toBe(episodeId);
    expect(data.episode.status).toBe("completed");
    expect(data.artifacts.map((a) => a.position)).toEqual([0, 1]);
  });

  it("rejects when the list of seats' logs cannot be read, instead of saying there is none", async () => {
    const client = clientFailing((url) => url.includes("/policy-artifacts"));
    const error: unknown = await loadEpisode(client, episodeId, new AbortController().signal).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAPIConnectionError(error)).toBe(true);
  });
});
