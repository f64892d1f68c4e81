// The reference deployment of docs/deploy.md, on one machine made into several: two server
// replicas and two runners each in a network namespace of its own (a veth pair to a bridge), and
// the services in the root namespace at the bridge's address — PostgreSQL (reached through a TCP
// forward: it listens on loopback), Redis, an S3-compatible bucket (s3rver) and HAProxy, which
// terminates TLS with a certificate made now and balances round-robin with no stickiness. Every
// request of the test, the runners and the people goes through the balancer over HTTPS/WSS.
//
// It plays a hosted game and league rounds, SIGKILLs every process of a replica's host and then of
// a runner's host mid-round, and checks in the database that nothing was lost or counted twice.
// Prints the figures: time to resume after each kill, episodes per minute with one and two runner
// hosts. Skips (saying why in one line) where it cannot make namespaces or install HAProxy.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getCACertificates, setDefaultCACertificates } from "node:tls";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  bestEffort,
  type HostedGameCreateResponse,
  type HostedGameJoinResponse,
  type HostedGameSession,
} from "@gauntlet/core";

import {
  haproxyUnavailable,
  startHaproxy,
  type HaproxyProcess,
} from "../../testing/deployment/haproxy-process.ts";
import {
  createNetworkLab,
  labUnavailable,
  type LabHost,
  type NetworkLab,
} from "../../testing/deployment/network-lab.ts";
import { startTcpForward, type TcpForward } from "../../testing/deployment/tcp-forward.ts";
import { makeTestCertificate } from "../../testing/deployment/tls-certificate.ts";
import {
  client,
  createTestLeague,
  createTestStore,
  eventually,
  startRedisProcess,
  startReplicaProcess,
  startRunnerProcess,
  startTestServer,
  type RedisProcess,
  type ReplicaProcess,
  type RunnerProcess,
  type TestServer,
  type TestStore,
} from "../../testing/index.ts";
import { startS3Server, type TestS3Server } from "../../testing/s3-server.ts";
import { playSlot } from "../../testing/slot-player.ts";

// The replicas share one PostgreSQL: the test runs in the PostgreSQL suite (DATABASE_URL set).
const DATABASE_URL = process.env.DATABASE_URL ?? "";
const REPLICA_PORT = 8787;

async function databaseUnavailable(): Promise<string | null> {
  if (!DATABASE_URL.startsWith("postgres")) return "needs PostgreSQL: DATABASE_URL is not set";
  const probe = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
    await probe.end();
    return null;
  } catch (error) {
    return `no PostgreSQL at ${DATABASE_URL}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const skipReason = (await databaseUnavailable()) ?? labUnavailable() ?? haproxyUnavailable();
if (skipReason) process.stdout.write(`reference deployment skipped: ${skipReason}\n`);

let lab: NetworkLab | undefined;
let dir = "";
let pgForward: TcpForward | undefined;
let redis: RedisProcess | undefined;
let s3: TestS3Server | undefined;
let balancer: HaproxyProcess | undefined;
let shared: TestStore | undefined;
let setup: TestServer | undefined;
const replicas = new Map<string, ReplicaProcess>();
const runners = new Map<string, RunnerProcess>();
const hosts = new Map<string, LabHost>();
let publicUrl = "";
let runnerPlacement: (name: string) => { netns: string; env: Record<string, string> };

function host(name: string): LabHost {
  const found = hosts.get(name);
  if (!found) throw new Error(`no host ${name}`);
  return found;
}

beforeAll(async () => {
  if (skipReason) return;
  lab = createNetworkLab();
  dir = mkdtempSync(join(tmpdir(), "gauntlet-deployment-"));
  for (const name of ["a", "b", "r1", "r2"]) hosts.set(name, lab.addHost(name));

  const database = new URL(DATABASE_URL);
  pgForward = await startTcpForward(lab.hostAddress, {
    host: database.hostname,
    port: Number(database.port || 5432),
  });
  const replicaDatabaseUrl = Object.assign(new URL(DATABASE_URL), {
    hostname: lab.hostAddress,
    port: String(pgForward.port),
  }).toString();
  redis = await startRedisProcess(lab.hostAddress);
  s3 = await startS3Server("gauntlet", lab.hostAddress);

  const certificate = makeTestCertificate(dir, lab.hostAddress);
  // This process's fetch and WebSocket trust the test certificate, as the runners do by
  // NODE_EXTRA_CA_CERTS.
  setDefaultCACertificates([...getCACertificates("default"), certificate.certificatePem]);
  publicUrl = `https://${lab.hostAddress}`;
  balancer = await startHaproxy(dir, {
    listen: `${lab.hostAddress}:443`,
    certificate: certificate.bundleFile,
    replicas: ["a", "b"].map((name) => ({
      name: `replica-${name}`,
      address: `${host(name).address}:${REPLICA_PORT}`,
    })),
  });

  const env: Record<string, string> = {
    REDIS_URL: redis.url,
    GAUNTLET_EVENTS_CHANNEL: `gauntlet:deploy:${randomBytes(4).toString("hex")}`,
    GAUNTLET_SECRET_KEY: randomBytes(32).toString("base64"),
    GAUNTLET_PUBLIC_URL: publicUrl,
    GAUNTLET_TRUSTED_PROXIES: lab.hostAddress,
    GAUNTLET_BLOB_STORE: "s3",
    GAUNTLET_S3_ENDPOINT: s3.endpoint,
    GAUNTLET_S3_BUCKET: s3.options.bucket,
    GAUNTLET_S3_ACCESS_KEY_ID: s3.options.accessKeyId,
    GAUNTLET_S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
    // A dead runner's episode goes back to the queue sooner than the default 30 s.
    GAUNTLET_LEASE_SECONDS: "5",
    GAUNTLET_SCHEDULER_TICK_MS: "100",
  };
  // The test's own server: it migrates the schema and makes users and tokens in the database;
  // it starts no rounds and no request goes to it.
  shared = await createTestStore(DATABASE_URL);
  setup = await startTestServer({ testStore: shared, env: { ...env, GAUNTLET_SCHEDULER: "off" } });
  for (const name of ["a", "b"]) {
    replicas.set(
      name,
      await startReplicaProcess(shared, env, {
        netns: host(name).netns,
        host: "0.0.0.0",
        port: REPLICA_PORT,
        dataDir: mkdtempSync(join(dir, `replica-${name}-`)),
        databaseUrl: replicaDatabaseUrl,
      }),
    );
  }
  runnerPlacement = (name) => ({
    netns: host(name).netns,
    env: { NODE_EXTRA_CA_CERTS: certificate.certificateFile },
  });
}, 180_000);

afterAll(async () => {
  for (const runner of runners.values()) await bestEffort(runner.stop());
  for (const replica of replicas.values()) await bestEffort(replica.kill());
  await bestEffort(balancer?.stop() ?? Promise.resolve());
  await bestEffort(setup?.close() ?? Promise.resolve());
  await bestEffort(shared?.cleanup() ?? Promise.resolve());
  await bestEffort(pgForward?.close() ?? Promise.resolve());
  await bestEffort(s3?.close() ?? Promise.resolve());
  await bestEffort(redis?.kill() ?? Promise.resolve());
  lab?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(skipReason !== null)("the reference deployment", () => {
  it("plays through TLS and round-robin, survives a replica host and a runner host dying, and loses or doubles nothing", async () => {
    if (!setup) throw new Error("not set up");
    const db = setup.server.store.db;
    const throughBalancer: TestServer = { ...setup, url: publicUrl };
    const started = performance.now();

    // Both replicas serve behind the balancer, and the links they hand out are the public ones.
    await eventually("both replicas ready behind the balancer", async () => {
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() => client(publicUrl).get<{ status: string }>("/readyz")),
      );
      return answers.every((a) => a.status === 200 && a.body.status === "ready");
    });
    const openapi = await client(publicUrl).get<{ servers: { url: string }[] }>("/openapi.json");
    expect(openapi.body.servers[0]?.url).toBe(publicUrl);

    runners.set("r1", await startRunnerProcess(setup, "r1", 1, [publicUrl], runnerPlacement("r1")));
    const runnerLog = () =>
      [...runners.entries()].map(([n, r]) => `--- ${n}\n${r.output().slice(-1500)}`).join("\n");
    /** `eventually`, whose failure shows what the runners said by then. */
    const waitFor = async <T>(what: string, probe: () => Promise<T | null | undefined | false>) => {
      try {
        return await eventually(what, probe);
      } catch (error) {
        const jobs = await db
          .selectFrom("jobs")
          .select(["status", "runtime", "lease_owner", "isolation", "attempts"])
          .execute();
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}\n${runnerLog()}\njobs: ${JSON.stringify(jobs)}`,
          { cause: error },
        );
      }
    };

    const tl = await createTestLeague(throughBalancer, { settings: { episodes_per_pairing: 2 } });
    const api = client(publicUrl, tl.commissioner.token);
    // League rounds: three players, two episodes per pairing, six episodes a round.
    const pause = (paused: boolean) =>
      api.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused });
    expect((await pause(true)).status).toBe(200);
    for (const [name, baseline] of [
      ["Greedy", "greedy"],
      ["Wanderer", "wanderer"],
      ["Random", "random"],
    ] as const) {
      await tl.submit(await tl.addPlayer(name, { baseline }));
    }
    expect((await pause(false)).status).toBe(200);

    const round = (n: number) =>
      waitFor(`round ${n} to start`, () =>
        db
          .selectFrom("rounds")
          .selectAll()
          .where("league_id", "=", tl.league.id)
          .where("round_number", "=", n)
          .executeTakeFirst(),
      );
    const settled = async (n: number) => {
      const r = await round(n);
      return waitFor(`round ${n} to settle`, async () => {
        const row = await db
          .selectFrom("rounds")
          .selectAll()
          .where("id", "=", r.id)
          .executeTakeFirstOrThrow();
        return row.status === "running" || row.status === "pending" ? null : row;
      });
    };
    /** Episodes a minute over a settled round: from its first lease to its last result. */
    const perMinute = async (roundId: string) => {
      const rows = await db
        .selectFrom("episode_requests")
        .innerJoin("jobs", "jobs.episode_request_id", "episode_requests.id")
        .select(["jobs.leased_at", "episode_requests.updated_at"])
        .where("episode_requests.round_id", "=", roundId)
        .execute();
      const first = Math.min(...rows.map((r) => Date.parse(r.leased_at ?? "")));
      const last = Math.max(...rows.map((r) => Date.parse(r.updated_at)));
      return (rows.length * 60_000) / (last - first);
    };
    const completedEpisodes = async () =>
      (
        await db
          .selectFrom("episode_requests")
          .innerJoin("rounds", "rounds.id", "episode_requests.round_id")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("rounds.league_id", "=", tl.league.id)
          .where("episode_requests.status", "=", "completed")
          .executeTakeFirstOrThrow()
      ).n;
    const leasedIn = async (roundId: string, runnerId?: string) => {
      let query = db
        .selectFrom("jobs")
        .innerJoin("episode_requests", "episode_requests.id", "jobs.episode_request_id")
        .select(["jobs.id", "jobs.episode_request_id"])
        .where("episode_requests.round_id", "=", roundId)
        .where("jobs.status", "=", "leased");
      if (runnerId) query = query.where("jobs.lease_owner", "like", `%/${runnerId}`);
      return query.execute();
    };

    // One runner host.
    const one = await settled(1);
    expect(one.status).toBe("completed");
    const oneRunner = await perMinute(one.id);

    // Two runner hosts: measured over round 3, the first the second runner is in from the start.
    runners.set("r2", await startRunnerProcess(setup, "r2", 1, [publicUrl], runnerPlacement("r2")));
    await settled(2);
    const three = await settled(3);
    const twoRunners = await perMinute(three.id);

    // A hosted game, both replicas and both runners up: the people's sockets and the runner's relay each reach whichever replica
    // the balancer picks.
    const created = await api.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
      variant_id: "duel-small",
      game_config: { turns: 3, turn_timeout_ms: 10_000, connect_timeout_ms: 60_000 },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.join_url.startsWith(`${publicUrl}/`), created.body.join_url).toBe(true);
    const session = created.body.session_id;
    const people = [];
    for (let slot = 0; slot < 2; slot += 1) {
      const joined = await client(publicUrl).post<HostedGameJoinResponse>(
        `/v2/coworlds/play/session/${session}/join`,
      );
      expect(joined.status, joined.text).toBe(200);
      const wss = publicUrl.replace(/^https/, "wss");
      expect(joined.body.player_url.startsWith(`${wss}/`), joined.body.player_url).toBe(true);
      people.push(playSlot(joined.body.player_url, "E"));
    }
    const game = await waitFor(`the hosted game to end`, async () => {
      const read = (await api.get<HostedGameSession>(`/v2/coworlds/play/session/${session}`)).body;
      return ["completed", "failed", "cancelled"].includes(read.status) ? read : null;
    });
    expect(game.status, runnerLog()).toBe("completed");
    for (const person of people) expect(person.turns).toEqual([0, 1, 2]);

    // A replica host dies mid-round: every process in its namespace SIGKILLed.
    const four = await round(4);
    await eventually("a job of round 4 leased", async () => (await leasedIn(four.id)).length > 0);
    const doneBeforeReplicaKill = Number(await completedEpisodes());
    const replicaKilledAt = performance.now();
    expect(host("a").killAll()).toBeGreaterThan(0);
    await eventually("an episode completed after the replica's death", async () =>
      Number(await completedEpisodes()) > doneBeforeReplicaKill ? true : null,
    );
    const afterReplicaKill = performance.now() - replicaKilledAt;
    expect((await settled(4)).status).toBe("completed");

    // A runner host dies mid-episode: its job goes back to the queue when its lease runs out and
    // the other runner plays it.
    const five = await round(5);
    const held = await eventually("a job of round 5 leased by r1", async () => {
      const rows = await leasedIn(five.id, "r1");
      return rows[0] ?? null;
    });
    const runnerKilledAt = performance.now();
    expect(host("r1").killAll()).toBeGreaterThan(0);
    await waitFor(`r1's job played by r2`, async () => {
      const job = await db
        .selectFrom("jobs")
        .select(["status"])
        .where("id", "=", held.id)
        .executeTakeFirstOrThrow();
      return job.status === "completed" ? job : null;
    });
    const afterRunnerKill = performance.now() - runnerKilledAt;
    expect((await settled(5)).status).toBe("completed");

    // The record: every settled round has all its episodes, each completed and played by one
    // job; r1's orphaned job was leased twice and completed once; events are gapless.
    const rounds = await db
      .selectFrom("rounds")
      .selectAll()
      .where("league_id", "=", tl.league.id)
      .where("status", "=", "completed")
      .execute();
    expect(rounds.length).toBeGreaterThanOrEqual(5);
    for (const r of rounds) {
      const episodes = await db
        .selectFrom("episode_requests")
        .select(["id", "status"])
        .where("round_id", "=", r.id)
        .execute();
      expect(episodes).toHaveLength(r.episode_count);
      expect(episodes.every((e) => e.status === "completed")).toBe(true);
      const jobs = await db
        .selectFrom("jobs")
        .select(["episode_request_id", "status"])
        .where(
          "episode_request_id",
          "in",
          episodes.map((e) => e.id),
        )
        .execute();
      expect(jobs).toHaveLength(episodes.length);
      expect(new Set(jobs.map((j) => j.episode_request_id)).size).toBe(episodes.length);
    }
    const orphan = await db
      .selectFrom("jobs")
      .select(["attempts", "lease_owner", "status"])
      .where("id", "=", held.id)
      .executeTakeFirstOrThrow();
    expect(orphan.status).toBe("completed");
    expect(orphan.attempts).toBe(2);
    expect(orphan.lease_owner ?? "").toMatch(/\/r2$/);
    const seqs = (
      await db.selectFrom("competition_events").select("seq").orderBy("seq").execute()
    ).map((e) => Number(e.seq));
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));

    process.stdout.write(
      [
        `reference deployment (2 replicas, 2 runner hosts, HAProxy + TLS, PostgreSQL, Redis, S3), ${Math.round((performance.now() - started) / 1000)} s of play:`,
        `  episodes per minute: one runner host ${oneRunner.toFixed(1)}, two runner hosts ${twoRunners.toFixed(1)} (each a whole round of ${one.episode_count}, first lease to last result)`,
        `  replica host killed mid-round: next episode result ${Math.round(afterReplicaKill)} ms after the kill`,
        `  runner host killed mid-episode: its episode's result ${Math.round(afterRunnerKill)} ms after the kill (lease ${5} s)`,
        "",
      ].join("\n"),
    );
  }, 300_000);
});
