// A runner given two replicas' addresses fails over: it leases from the first, which is SIGKILLed
// while the episode runs; its heartbeats, artifacts and completion go to the second, and the
// result lands once (checked in the database). The episode is a hosted game whose two programs
// the test plays, so the kill falls between two turns. Prints the time from the kill to the
// runner's first answer from the other replica, and to the result in the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createHostedDuel, joinHostedGame } from "../../testing/hosted-play.ts";
import {
  createTestStore,
  startReplicaProcess,
  startTestServer,
  type ReplicaProcess,
  type TestServer,
  type TestStore,
} from "../../testing/index.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

let shared: TestStore;
let b: TestServer;
let a: ReplicaProcess;
let runner: RunnerProcess;

beforeAll(async () => {
  shared = await createTestStore();
  b = await startTestServer({ testStore: shared, env: { GAUNTLET_SCHEDULER: "off" } });
  // A gives B's address as the public one (as a balancer's would be), so the runner's relay for
  // the people — made absolute when A answers the lease — meets them on B, which survives; a
  // relay on a dying replica is another case (its person is not told, docs/deploy.md).
  a = await startReplicaProcess(shared, { GAUNTLET_SCHEDULER: "off", GAUNTLET_PUBLIC_URL: b.url });
}, 120_000);

afterAll(async () => {
  await runner?.stop();
  await a?.kill();
  await b?.close();
  await shared?.cleanup();
}, 60_000);

/** A program on a slot: answers each turn once `go` says so. */
function program(url: string, go: () => Promise<void>): { turns: number[] } {
  const turns: number[] = [];
  const socket = new WebSocket(url);
  socket.addEventListener("message", (event: MessageEvent) => {
    const message = JSON.parse(String(event.data)) as { type: string; turn?: number };
    if (message.type !== "turn" || message.turn === undefined) return;
    const turn = message.turn;
    turns.push(turn);
    void go().then(() =>
      socket.send(JSON.stringify({ type: "move", turn, move: turn === 0 ? "E" : "stay" })),
    );
  });
  return { turns };
}

describe("a runner with two replicas' addresses", () => {
  it("reports its episode to the second when the first is killed mid-episode, and the result lands once", async () => {
    const tl = await createTestLeague(b);
    const created = await createHostedDuel(b.url, tl);
    expect(created.status, created.text).toBe(200);
    const id = created.body.session_id;

    // The first turn waits for the kill: the runner is then mid-episode, its lease taken on A.
    let killedAt = 0;
    let killing: Promise<void> | null = null;
    const killOnce = () =>
      (killing ??= a.kill().then(() => {
        killedAt = performance.now();
      }));
    const people = [];
    for (let slot = 0; slot < 2; slot += 1) {
      const joined = await joinHostedGame(b.url, id);
      expect(joined.status, joined.text).toBe(200);
      people.push(program(joined.body.player_url, killOnce));
    }
    runner = await startRunnerProcess(b, "failover", 1, [a.url, b.url]);

    const episodeRequestId = await eventually("the game's episode request", async () => {
      const row = await b.server.store.db
        .selectFrom("play_sessions")
        .select("episode_request_id")
        .where("id", "=", id)
        .executeTakeFirst();
      return row?.episode_request_id ?? null;
    });
    const job = await eventually(
      "the result in the database",
      async () => {
        const row = await b.server.store.db
          .selectFrom("jobs")
          .selectAll()
          .where("episode_request_id", "=", episodeRequestId)
          .executeTakeFirst();
        return row && ["completed", "failed"].includes(row.status) ? row : null;
      },
      180_000,
    );
    const landedAt = performance.now();
    const log = runner.output();
    expect(killedAt, log).toBeGreaterThan(0);
    // Leased once, from A (the only lease it ever had), completed through B.
    expect(job, log).toMatchObject({ status: "completed", attempts: 1 });
    expect(log).toContain("no answer from a server; trying the next");
    const jobs = await b.server.store.db
      .selectFrom("jobs")
      .select("id")
      .where("episode_request_id", "=", episodeRequestId)
      .execute();
    expect(jobs).toHaveLength(1);
    const request = await b.server.store.db
      .selectFrom("episode_requests")
      .selectAll()
      .where("id", "=", episodeRequestId)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe("completed");
    for (const person of people) expect(person.turns).toEqual([0, 1, 2]);

    const resumed = /a server answers again.* after_ms=(\d+)/.exec(log);
    process.stdout.write(
      `runner failover: kill → result in the database ${Math.round(landedAt - killedAt)} ms; ` +
        `first failed-over call answered after ${resumed?.[1] ?? "?"} ms\n`,
    );
  }, 300_000);
});
