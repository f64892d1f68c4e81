// Redis down, as an operator would see it: two replicas sharing a store and a Redis of the
// test's own, which is killed and started again. While it is down the replicas stay up but say
// they are degraded, budgets fail open with the headers saying so, and a revoked
// token is refused on the other replica at once: no replica trusts its token cache while it
// cannot hear revocations, and the revocation answers only once that holds everywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  client,
  PATIENCE_MS,
  startRedisProcess,
  type RedisProcess,
  type TestServer,
} from "../../testing/index.ts";
import {
  redisReplicaEnv,
  startSharedStoreReplicas,
  type SharedStoreReplicas,
} from "../../testing/shared-store-replicas.ts";

interface Readiness {
  status: string;
  checks: Record<string, { ok: boolean; error?: string }>;
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readiness = (t: TestServer) => client(t.url).get<Readiness>("/readyz");
const tokensRead = (t: TestServer, token: string) => client(t.url, token).get("/v2/tokens");

describe("two replicas while their Redis is down", () => {
  let redis: RedisProcess;
  let replicas: SharedStoreReplicas;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    redis = await startRedisProcess();
    replicas = await startSharedStoreReplicas(redisReplicaEnv(redis.url));
    ({ a, b } = replicas);
    for (const t of [a, b])
      await until("ready", async () => (await readiness(t)).body.status === "ready");
  });
  afterAll(async () => {
    await replicas?.close();
    await redis?.kill();
  });

  /** A fresh token of a new user, in both replicas' caches. */
  async function cachedToken(): Promise<{ id: string; token: string; owner: string }> {
    const user = await a.newUser();
    const made = await client(a.url, user.token).post<{ id: string; token: string }>("/v2/tokens", {
      name: "doomed",
      kind: "user",
    });
    expect(made.status).toBe(201);
    for (const t of [a, b, a, b]) expect((await tokensRead(t, made.body.token)).status).toBe(200);
    return { ...made.body, owner: user.token };
  }

  it("says ready and enforces budgets while Redis is up", async () => {
    expect((await readiness(a)).body).toEqual({
      status: "ready",
      checks: { store: { ok: true }, budgets: { ok: true }, signals: { ok: true } },
    });
    const user = await a.newUser();
    const res = await client(b.url, user.token).get("/whoami");
    expect(res.headers.get("x-ratelimit-outcome")).toBe("allowed");
  });

  it("stays up but degraded, fails budgets open, and refuses a revoked token everywhere at once", async () => {
    const doomed = await cachedToken();
    await redis.kill();
    for (const t of [a, b])
      await until("degraded", async () => (await readiness(t)).body.status === "degraded");
    const ready = await readiness(b);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.store).toEqual({ ok: true });
    expect(ready.body.checks.budgets?.ok).toBe(false);
    expect(ready.body.checks.signals?.ok).toBe(false);

    // The API serves; the budget is not enforced, and the headers say so.
    const served = await client(b.url, doomed.token).get("/whoami");
    expect(served.status).toBe(200);
    expect(served.headers.get("x-ratelimit-outcome")).toBe("unavailable");
    expect(served.headers.get("x-ratelimit-mode")).toBe("enforced");
    expect(served.headers.get("x-ratelimit-user-requests-minute-remaining")).toBeNull();

    // Revoked on one replica; the other replica refuses it on the very next request.
    const revoked = await client(a.url, doomed.owner).delete(`/v2/tokens/${doomed.id}`);
    expect(revoked.status).toBe(200);
    const [onA, onB] = await Promise.all([
      tokensRead(a, doomed.token),
      tokensRead(b, doomed.token),
    ]);
    expect([onA.status, onB.status]).toEqual([401, 401]);
    expect((await tokensRead(b, doomed.owner)).status).toBe(200);
  });

  it("trusts its caches again once Redis is back, and revocations travel by signal again", async () => {
    await redis.start();
    for (const t of [a, b])
      await until("ready again", async () => (await readiness(t)).body.status === "ready");
    const doomed = await cachedToken();
    expect((await client(a.url, doomed.owner).delete(`/v2/tokens/${doomed.id}`)).status).toBe(200);
    expect((await tokensRead(b, doomed.token)).status).toBe(401);
    const user = await b.newUser();
    expect(
      (await client(a.url, user.token).get("/whoami")).headers.get("x-ratelimit-outcome"),
    ).toBe("allowed");
  });
});
