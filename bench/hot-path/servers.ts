// What both modes of bench/hot-path serve: the bare node:http servers (a JSON hello, and a
// replay of canned bytes for the floor row) and the real server's setup (the demo league after
// one settled round, a reader's token, budgets enforced with capacities nothing reaches).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { LEASE_TOKEN_HEADER } from "@gauntlet/core";
import { resolveConfig, startServer, type RunningServer } from "@gauntlet/server";
import {
  createApiToken,
  createDemoLeague,
  createUser,
  DEMO_EMAIL,
  findUserByEmail,
  FIRST_ADMIN_EMAIL,
  registerExampleCoworld,
} from "@gauntlet/server/bench";
import type { TestStore } from "@gauntlet/server/testing";

const HUGE = 1e9;
export const ENV: Record<string, string> = {
  GAUNTLET_SCHEDULER: "off",
  GAUNTLET_RATE_LIMIT_MODE: process.env.BENCH_LIMITER ?? "enforced",
  GAUNTLET_USER_CAPACITIES: JSON.stringify({
    requestsPerMinute: HUGE,
    requestsPerHour: HUGE,
    complexityPerMinute: HUGE,
    complexityPerHour: HUGE,
  }),
  GAUNTLET_MACHINE_CAPACITIES: JSON.stringify({
    requestsPerMinute: HUGE,
    requestsPerHour: HUGE,
    complexityPerMinute: HUGE,
    complexityPerHour: HUGE,
  }),
  ...(process.env.REDIS_URL
    ? { REDIS_URL: process.env.REDIS_URL, GAUNTLET_EVENTS_CHANNEL: `gauntlet:bench:${Date.now()}` }
    : {}),
};

/** A bare node:http server answering every request with one canned response. */
export async function bareNode(canned: {
  headers: [string, string][];
  body: Buffer;
}): Promise<{ url: string; close: () => void }> {
  const headers = [...canned.headers, ["content-length", String(canned.body.length)]].flat();
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(canned.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => server.close(),
  };
}

export const HELLO = {
  headers: [["content-type", "application/json; charset=utf-8"]] as [string, string][],
  body: Buffer.from(JSON.stringify({ hello: "world" })),
};

/** The real server's answer to `url`, as bytes and headers to replay (less those node:http writes itself). */
export async function capture(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: [string, string][]; body: Buffer }> {
  const res = await fetch(url, { headers });
  const own = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
  return {
    headers: [...res.headers].filter(([name]) => !own.has(name)),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

async function call(
  server: RunningServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The real server with the demo league, one round of it settled (so its standings have rows), and a user token. */
export async function realServer(
  testStore: TestStore,
): Promise<{ server: RunningServer; division: string; other: string; token: string }> {
  const config = resolveConfig(
    {
      port: 0,
      host: "127.0.0.1",
      dataDir: testStore.dataDir,
      databaseUrl: testStore.databaseUrl,
      databaseSchema: testStore.pgSchema,
    },
    ENV,
  );
  const server = await startServer(config, { env: ENV, store: testStore.store });
  const { db } = server.store;
  const coworld = await registerExampleCoworld(server.store, server.context.blobs);
  if (!coworld) throw new Error("the example coworld was not registered");
  const demo = await createDemoLeague(db, server.context.blobs, server.leaguePlay.bus, coworld);
  if (!demo) throw new Error("no demo league");
  const division = demo.divisions[0]?.id ?? "";
  const other = demo.divisions[1]?.id ?? "";
  const demoUser = await findUserByEmail(db, DEMO_EMAIL);
  const admin = await findUserByEmail(db, FIRST_ADMIN_EMAIL);
  if (!demoUser || !admin) throw new Error("no demo or admin user");
  const commissioner = (
    await createApiToken(db, { userId: demoUser.id, name: "bench", kind: "user" })
  ).token;
  const machine = (
    await createApiToken(db, {
      userId: admin.id,
      name: "bench-runner",
      kind: "machine",
      machineName: "bench-runner",
    })
  ).token;
  await call(server, commissioner, "POST", `/v2/leagues/${demo.league.id}/trigger-round`, {});
  // A scripted runner: the first seat wins every episode.
  for (;;) {
    const { jobs } = (await call(server, machine, "POST", "/v2/runner/jobs/lease", {
      runner_id: "bench-runner",
      capacity: 32,
      runtimes: ["process"],
      isolation: "sandbox",
    })) as { jobs: { job_id: string; lease_token: string; players: unknown[] }[] };
    if (jobs.length === 0) break;
    for (const job of jobs) {
      const scores = job.players.map((_, i) => (i === 0 ? 1 : 0));
      await call(
        server,
        machine,
        "POST",
        `/v2/runner/jobs/${job.job_id}/complete`,
        { runner_id: "bench-runner", results: { scores, winner_slot: 0, turns: 5, seed: 1 } },
        { [LEASE_TOKEN_HEADER]: job.lease_token },
      );
    }
  }
  const user = await createUser(db, {
    email: "reader@example.test",
    password: "correct horse battery",
  });
  const token = (await createApiToken(db, { userId: user.id, name: "reader", kind: "user" })).token;
  const rows = await call(server, token, "GET", `/v2/divisions/${division}/leaderboard`);
  if (!Array.isArray(rows) || rows.length === 0)
    throw new Error("the demo division has no standings rows after its round");
  return { server, division, other, token };
}
