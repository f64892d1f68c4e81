// A revoked token is refused on the very next request, on every replica: two servers sharing one
// store (PostgreSQL in the PostgreSQL suite) and Redis, each with the token in its authentication
// cache, then a revocation on one of them.
import { randomBytes } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, openSocket, type TestServer } from "../../testing/index.ts";
import {
  redisReplicaEnv,
  startSharedStoreReplicas,
  type SharedStoreReplicas,
} from "../../testing/shared-store-replicas.ts";

describe("revoking a token with two replicas sharing the store and Redis", () => {
  let replicas: SharedStoreReplicas;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    replicas = await startSharedStoreReplicas(redisReplicaEnv("redis://127.0.0.1:6379"));
    ({ a, b } = replicas);
    await Promise.all([a.server.signals.ready(), b.server.signals.ready()]);
  });
  afterAll(async () => {
    await replicas?.close();
  });

  // whoami is always 200 (an invalid token reads as anonymous); GET /v2/tokens needs a valid one.
  const subjectOf = async (t: TestServer, token: string) =>
    (await client(t.url, token).get<{ subject_type: string }>("/whoami")).body.subject_type;
  const tokensRead = (t: TestServer, token: string) => client(t.url, token).get("/v2/tokens");

  it("refuses a revoked API token on both replicas at once", async () => {
    const user = await a.newUser();
    const made = await client(a.url, user.token).post<{ id: string; token: string }>("/v2/tokens", {
      name: "doomed",
      kind: "user",
    });
    expect(made.status).toBe(201);
    // Both replicas have the token cached (twice: the second answer is the cache's).
    for (const t of [a, b, a, b]) expect((await tokensRead(t, made.body.token)).status).toBe(200);
    expect((await client(a.url, user.token).delete(`/v2/tokens/${made.body.id}`)).status).toBe(200);
    const [onA, onB] = await Promise.all([
      tokensRead(a, made.body.token),
      tokensRead(b, made.body.token),
    ]);
    expect(onA.status).toBe(401);
    expect(onB.status).toBe(401);
    expect(onB.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    // The revoking user's own token is untouched.
    expect((await tokensRead(b, user.token)).status).toBe(200);
  });

  it("refuses a player's revoked credentials on both replicas at once", async () => {
    const user = await a.newUser();
    const player = await client(a.url, user.token).post<{ id: string }>("/players", {
      name: `p${randomBytes(3).toString("hex")}`,
    });
    expect(player.status).toBe(201);
    const credential = await client(a.url, user.token).post<{ token: string }>(
      `/players/${player.body.id}/credentials`,
      { name: "bot" },
    );
    expect(credential.status).toBe(201);
    for (const t of [a, b, a, b]) expect(await subjectOf(t, credential.body.token)).toBe("player");
    expect(
      (await client(b.url, user.token).delete(`/players/${player.body.id}/credentials`)).status,
    ).toBe(200);
    expect(await subjectOf(a, credential.body.token)).toBe("anonymous");
    expect(await subjectOf(b, credential.body.token)).toBe("anonymous");
  });

  it("closes the revoked token's open sockets on both replicas, and a player's with its credentials", async () => {
    const user = await a.newUser();
    const made = await client(a.url, user.token).post<{ id: string; token: string }>("/v2/tokens", {
      name: "socket",
      kind: "user",
    });
    const onA = openSocket(a.url, made.body.token);
    const onB = openSocket(b.url, made.body.token);
    const keeper = openSocket(b.url, user.token);
    for (const s of [onA, onB, keeper])
      expect((await s.subscribe(["episode-requests:mine"])).topics).toEqual([
        "episode-requests:mine",
      ]);
    expect((await client(a.url, user.token).delete(`/v2/tokens/${made.body.id}`)).status).toBe(200);
    for (const s of [onA, onB])
      expect(await s.closed).toEqual({ code: 4401, reason: "the token was revoked" });
    // The user's other token keeps its socket, and subscribes again (authorised afresh).
    expect((await keeper.subscribe(["episode-requests:mine"])).topics).toEqual([
      "episode-requests:mine",
    ]);
    keeper.close();

    const player = await a.newUser().then(async (owner) => {
      const created = await client(a.url, owner.token).post<{ id: string }>("/players", {
        name: `p${randomBytes(3).toString("hex")}`,
      });
      const credential = await client(a.url, owner.token).post<{ token: string }>(
        `/players/${created.body.id}/credentials`,
        { name: "bot" },
      );
      return { owner, id: created.body.id, token: credential.body.token };
    });
    const bot = openSocket(b.url, player.token);
    await bot.subscribe(["episode-requests:mine"]);
    expect(
      (await client(a.url, player.owner.token).delete(`/players/${player.id}/credentials`)).status,
    ).toBe(200);
    expect((await bot.closed).code).toBe(4401);
  });
});
