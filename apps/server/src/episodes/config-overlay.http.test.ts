// Private episode inputs over HTTP: an experience request names an overlay secret of its coworld;
// the answers show only its name, and the document (with its `secret://` values resolved to
// `data:` URLs) reaches only the lease a runner takes for the game.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

type Job = {
  episode_request_id: string;
  game_config: Record<string, unknown>;
  game_config_overlay?: Record<string, unknown>;
  game_config_overlay_error?: string;
};

const ROSTER_BYTES = "PRIVATE-ROSTER-BYTES-9f3a";

let t: TestServer;
let tl: TestLeague;
let coworldName: string;
let refs: string[];

async function putSecret(token: string, coworld: string, name: string, value: string) {
  return http("PUT", `${t.url}/v2/coworlds/secrets/${coworld}/${name}`, {
    token,
    body: value,
    headers: { "content-type": "application/octet-stream" },
  });
}

function overlay(overrides: Record<string, unknown>): string {
  return JSON.stringify({
    format: "coworld.game_config_overlay.v1",
    game_config_overrides: overrides,
  });
}

async function leaseAll(): Promise<Job[]> {
  const runner = client(t.url, await t.machineToken("overlay-runner"));
  const res = await runner.post<{ jobs: Job[] }>("/v2/runner/jobs/lease", {
    runner_id: "r1",
    capacity: 8,
    runtimes: ["process"],
    // A sandboxed runner may take competitors' code (access/code-trust.ts).
    isolation: "sandbox",
  });
  expect(res.status, res.text).toBe(200);
  return res.body.jobs;
}

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
  const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
  const random = await tl.addPlayer("Random", { baseline: "random" });
  refs = [greedy.policyVersionId, random.policyVersionId];
  coworldName = (await client(t.url).get<{ name: string }>(`/v2/coworlds/${tl.coworldId}`)).body
    .name;
  const owner = tl.commissioner.token;
  expect((await putSecret(owner, coworldName, "roster_42", ROSTER_BYTES)).status).toBe(200);
  const uri = `secret://coworld/${coworldName}/roster_42`;
  const doc = overlay({ turns: 7, roster: { uri, expected: ["Tank"] } });
  expect((await putSecret(owner, coworldName, "qualifying_42", doc)).status).toBe(200);
  const foreign = overlay({ turns: 8, key: "secret://coworld/someone-else/roster_42" });
  expect((await putSecret(owner, coworldName, "foreign_ref", foreign)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function request(token: string, secret: string) {
  return client(t.url, token).post<ExperienceRequestDetail>("/v2/experience-requests", {
    coworld_id: tl.coworldId,
    roster: refs.map((ref) => ({ player: { policy_ref: ref } })),
    num_episodes: 1,
    game_config_overrides: { turns: 5 },
    game_config_overlay_secret: secret,
  });
}

describe("an experience request's game_config_overlay_secret", () => {
  it("is resolved only into the runner's lease, never into an answer", async () => {
    const created = await request(tl.commissioner.token, "qualifying_42");
    expect(created.status, created.text).toBe(201);
    const episodeId = created.body.episodes[0]?.id ?? "";
    const api = client(t.url, tl.commissioner.token);
    const answers = [
      created.text,
      (await api.get(`/v2/experience-requests/${created.body.id}`)).text,
      (await api.get(`/v2/episode-requests/${episodeId}`)).text,
      (await api.get(`/v2/episode-requests/${episodeId}/artifacts/game-config`)).text,
    ];
    for (const text of answers) {
      expect(text).not.toContain(ROSTER_BYTES);
      expect(text).not.toContain(Buffer.from(ROSTER_BYTES).toString("base64"));
      expect(text).not.toContain('"turns":7');
    }

    const job = (await leaseAll()).find((j) => j.episode_request_id === episodeId);
    expect(job?.game_config).toMatchObject({ turns: 5 });
    expect(job?.game_config_overlay).toEqual({
      turns: 7,
      roster: {
        uri: `data:application/octet-stream;base64,${Buffer.from(ROSTER_BYTES).toString("base64")}`,
        expected: ["Tank"],
      },
    });
  });

  it("is refused (422 at its place) when the coworld has no such secret", async () => {
    const res = await request(tl.commissioner.token, "no_such_overlay");
    expect(res.status).toBe(422);
    expect(res.text).toContain("game_config_overlay_secret");
  });

  it("fails the episode at dispatch when the overlay reaches outside its coworld's secrets", async () => {
    const created = await request(tl.commissioner.token, "foreign_ref");
    expect(created.status, created.text).toBe(201);
    const episodeId = created.body.episodes[0]?.id ?? "";
    const job = (await leaseAll()).find((j) => j.episode_request_id === episodeId);
    expect(job?.game_config_overlay).toBeUndefined();
    expect(job?.game_config_overlay_error).toMatch(/outside secret:\/\/coworld\//);
  });

  it("gives a rival neither the overlay nor the secrets it names", async () => {
    const rival = await t.newUser();
    for (const name of ["qualifying_42", "roster_42"]) {
      const read = await http("GET", `${t.url}/v2/coworlds/secrets/${coworldName}/${name}`, {
        token: rival.token,
      });
      expect(read.status).toBe(404);
      expect(read.text).not.toContain(ROSTER_BYTES);
      const write = await putSecret(rival.token, coworldName, name, overlay({ turns: 1 }));
      expect(write.status).toBe(404);
    }
    const list = await http("GET", `${t.url}/v2/coworlds/secrets/${coworldName}`, {
      token: rival.token,
    });
    expect(list.status).toBe(404);
  });
});
