// Who reads an episode's logs, over real HTTP. A coworld is uploaded code too, and its game log is
// whatever the game printed: a certification episode is public, its game log is not — only the
// coworld's owner, the requester and admins read it; a seat's player log is its policy owner's,
// the requester's and admins'. Anonymous callers and other users read neither.
import { randomBytes } from "node:crypto";

import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { LeasedJob } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  gridrushBundle,
  gridrushManifest,
  scriptedRunner,
  type ScriptedRunner,
} from "../../testing/test-league.ts";

let t: TestServer;
let runner: ScriptedRunner;
let owner: { token: string };
let other: { token: string };
let job: LeasedJob;

const GAME_LOG = "game: read first-admin.txt: hunter2\n";
const PLAYER_LOG = "player 0: hello\n";

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  owner = await t.newUser();
  other = await t.newUser();
  runner = await scriptedRunner(t);
  // An ordinary user uploads a coworld and certifies it; the certification episode runs its game.
  const bytes = await fetch(`${t.url}/v2/coworlds/bundles`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/octet-stream" },
    body: await gridrushBundle(),
  });
  const { upload_id } = (await bytes.json()) as { upload_id: string };
  const coworld = await client(t.url, owner.token).post<{ id: string }>("/v2/coworlds/upload", {
    manifest: gridrushManifest(`logs-${randomBytes(3).toString("hex")}`),
    bundle_upload_id: upload_id,
  });
  expect(coworld.status, coworld.text).toBe(200);
  const coworldId = coworld.body.id;
  const certify = await client(t.url, owner.token).post(`/v2/coworlds/${coworldId}/certify`);
  expect(certify.status, certify.text).toBe(200);
  const [leased] = await runner.lease(1);
  if (!leased) throw new Error("the certification was not queued");
  job = leased;
  expect(await runner.upload(job, "logs", GAME_LOG)).toBe(200);
  expect(await runner.upload(job, "policy-log-0", PLAYER_LOG)).toBe(200);
  expect(
    await runner.complete(
      job,
      job.players.map(() => 1),
    ),
  ).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const episodePath = () => `/v2/episode-requests/${job.episode_request_id}`;
const gameLog = (token?: string) => client(t.url, token).get(`${episodePath()}/artifacts/logs`);
const playerLog = (token?: string) =>
  client(t.url, token).get(`${episodePath()}/bundled/policy-logs/0`);

async function bundleFiles(token?: string): Promise<string[]> {
  const res = await fetch(`${t.url}${episodePath()}/bundle`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.status).toBe(200);
  return Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())));
}

describe("episode log readers", () => {
  it("shows the certification episode to everyone, but its game log only to the coworld's owner and admins", async () => {
    expect((await client(t.url).get(episodePath())).status).toBe(200);
    const anonymous = await gameLog();
    expect(anonymous.status).toBe(404);
    expect(anonymous.text).not.toContain("hunter2");
    const stranger = await gameLog(other.token);
    expect(stranger.status).toBe(403);
    expect(stranger.text).not.toContain("hunter2");
    expect((await gameLog(owner.token)).text).toBe(GAME_LOG);
    expect((await gameLog(t.adminToken)).text).toBe(GAME_LOG);
  });

  it("keeps a seat's player log from anonymous callers and other users", async () => {
    expect((await playerLog()).status).toBe(404);
    expect((await playerLog(other.token)).status).toBe(403);
    // The requester (here the coworld's owner, who asked for the certification) and admins read it.
    expect((await playerLog(owner.token)).text).toBe(PLAYER_LOG);
    expect((await playerLog(t.adminToken)).text).toBe(PLAYER_LOG);
  });

  it("leaves the logs out of the episode's bundle for those who may not read them", async () => {
    for (const files of [await bundleFiles(), await bundleFiles(other.token)]) {
      expect(files).toContain("results.json");
      expect(files).not.toContain("logs/game.log");
      expect(files.filter((f) => f.startsWith("logs/policy_agent_"))).toEqual([]);
    }
    expect(await bundleFiles(owner.token)).toEqual(
      expect.arrayContaining(["logs/game.log", "logs/policy_agent_0.log"]),
    );
  });
});
