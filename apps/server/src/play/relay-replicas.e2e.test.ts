// Hosted play across replicas with no sticky routing: two replicas share one store and one Redis
// of the test's own. The people join on the second, which queues the game and so names itself in
// the relay address the runner (a real process) connects to; the people's sockets then reach the
// first, as a round-robin balancer may send them. Their moves must reach the game and the game's
// turns must reach them, over the bus, and the session completes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HostedGameSession } from "@gauntlet/core";

import { createHostedDuel, joinHostedGame } from "../../testing/hosted-play.ts";
import {
  client,
  startRedisProcess,
  type RedisProcess,
  type TestServer,
} from "../../testing/index.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import {
  redisReplicaEnv,
  startSharedStoreReplicas,
  type SharedStoreReplicas,
} from "../../testing/shared-store-replicas.ts";
import { playSlot } from "../../testing/slot-player.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let redis: RedisProcess;
let replicas: SharedStoreReplicas;
let a: TestServer;
let b: TestServer;
let runner: RunnerProcess;

beforeAll(async () => {
  redis = await startRedisProcess();
  replicas = await startSharedStoreReplicas(redisReplicaEnv(redis.url));
  ({ a, b } = replicas);
  runner = await startRunnerProcess(a, "relay-replicas");
}, 120_000);

afterAll(async () => {
  await runner?.stop();
  await replicas?.close();
  await redis?.kill();
}, 60_000);

describe("hosted play on two replicas, the people on one and the runner's relay on the other", () => {
  it("every turn reaches the people, their moves reach the game, and the session completes", async () => {
    const tl = await createTestLeague(a);
    const api = client(a.url, tl.commissioner.token);
    const created = await createHostedDuel(a.url, tl);
    expect(created.status, created.text).toBe(200);
    const id = created.body.session_id;

    const people = [];
    for (const first of ["E", "stay"]) {
      const joined = await joinHostedGame(b.url, id);
      expect(joined.status, joined.text).toBe(200);
      const [atB, atA] = [b.url, a.url].map((url) => url.replace(/^http/, "ws"));
      expect(joined.body.player_url.startsWith(`${atB}/`), joined.body.player_url).toBe(true);
      people.push(playSlot(joined.body.player_url.replace(atB ?? "", atA ?? ""), first));
    }

    const ended = await eventually(
      "the hosted game to end",
      async () => {
        const read = (await api.get<HostedGameSession>(`/v2/coworlds/play/session/${id}`)).body;
        return ["completed", "failed", "cancelled"].includes(read.status) ? read : null;
      },
      180_000,
    );
    expect(ended.status, runner.output().slice(-3000)).toBe("completed");
    for (const person of people) {
      expect(person.turns).toEqual([0, 1, 2]);
      // The game's end closes each person's socket, told by the other replica.
      expect(await person.closed).toBe(1000);
    }
    const replay = await api.get<string>(
      `/v2/episode-requests/${ended.episode_request_id ?? ""}/artifacts/replay`,
    );
    const moves = replay.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; moves?: string[] })
      .filter((entry) => entry.type === "turn")
      .map((entry) => entry.moves);
    expect(moves, replay.text).toEqual([
      ["E", "stay"],
      ["stay", "stay"],
      ["stay", "stay"],
    ]);
  }, 300_000);
});
