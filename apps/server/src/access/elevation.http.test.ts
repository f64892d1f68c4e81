// An admin's powers apply only on a request that asks for them (X-Use-Elevated-Privileges: true);
// without it an admin is an ordinary user. Elevated state-changing requests leave an audit row.
import { createConnection } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { eventually } from "../../testing/test-league.ts";

type WhoAmI = { is_admin: boolean; elevated: boolean; subject_type: string };
type AuditEntry = {
  user_id: string;
  user_email: string;
  operation_id: string;
  method: string;
  path: string;
  status: number;
  at: string;
};

let t: TestServer;
let admin: { id: string; email: string; token: string };
let user: { id: string; email: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.newUser({ admin: true });
  user = await t.newUser();
});
afterAll(async () => {
  await t.close();
});

const asAdmin = (elevated: boolean) => ({ token: admin.token, elevated });

describe("elevated privileges", () => {
  it("refuses an admin-only write to an admin who does not send the header, and takes it from one who does", async () => {
    const plain = await http("POST", `${t.url}/v2/games`, {
      ...asAdmin(false),
      body: { name: "plain-admin-game" },
    });
    expect(plain.status).toBe(403);
    const elevated = await http<{ name: string }>("POST", `${t.url}/v2/games`, {
      ...asAdmin(true),
      body: { name: "elevated-admin-game" },
    });
    expect(elevated.status).toBe(201);
    expect(elevated.body.name).toBe("elevated-admin-game");
  });

  it("gives the header no power without the admin role", async () => {
    const res = await http("POST", `${t.url}/v2/games`, {
      token: user.token,
      elevated: true,
      body: { name: "user-game" },
    });
    expect(res.status).toBe(403);
    const me = await http<WhoAmI>("GET", `${t.url}/whoami`, { token: user.token, elevated: true });
    expect(me.body).toMatchObject({ is_admin: false, elevated: false });
  });

  it("shows an unelevated admin only what an ordinary user sees", async () => {
    const owner = await t.newUser();
    const game = await http<{ id: string }>("POST", `${t.url}/v2/games`, {
      ...asAdmin(true),
      body: { name: "hidden-league-game" },
    });
    const league = await client(t.url, owner.token).post<{ id: string }>("/v2/leagues", {
      name: "Private ladder",
      game_id: game.body.id,
      public: false,
    });
    expect(league.status).toBe(201);
    const path = `${t.url}/v2/leagues/${league.body.id}`;
    expect((await http("GET", path, asAdmin(false))).status).toBe(404);
    expect((await http("GET", path, { token: user.token })).status).toBe(404);
    expect((await http("GET", path, asAdmin(true))).status).toBe(200);
  });

  it("says in whoami whether the admin role is held and whether this request uses it", async () => {
    const plain = await http<WhoAmI>("GET", `${t.url}/whoami`, asAdmin(false));
    expect(plain.body).toMatchObject({ subject_type: "user", is_admin: true, elevated: false });
    const elevated = await http<WhoAmI>("GET", `${t.url}/whoami`, asAdmin(true));
    expect(elevated.body).toMatchObject({ is_admin: true, elevated: true });
    // Only the literal "true" asks.
    const other = await http<WhoAmI>("GET", `${t.url}/whoami`, {
      token: admin.token,
      headers: { "X-Use-Elevated-Privileges": "yes" },
    });
    expect(other.body.elevated).toBe(false);
  });
});

describe("the audit trail", () => {
  const audit = (options: { token: string; elevated?: boolean }, query = "") =>
    http<AuditEntry[]>("GET", `${t.url}/v2/admin/audit${query}`, options);

  it("records each elevated state-changing request (never a read, never an unelevated one), readable only by an elevated admin", async () => {
    const secretName = `audited-${Date.now()}`;
    await http("POST", `${t.url}/v2/games`, {
      ...asAdmin(true),
      body: { name: secretName, description: "a body the trail must not keep" },
    });
    await http("POST", `${t.url}/v2/games`, { ...asAdmin(true), body: { name: secretName } });
    await http("POST", `${t.url}/v2/games`, { ...asAdmin(false), body: { name: "unaudited" } });
    await http("GET", `${t.url}/v2/games?mark=1`, asAdmin(true));

    // The row is written once the answer has left: wait for it briefly.
    let trail = await audit(asAdmin(true), `?user_id=${admin.id}`);
    for (let i = 0; i < 50 && trail.body.filter((e) => e.method === "POST").length < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trail = await audit(asAdmin(true), `?user_id=${admin.id}`);
    }
    expect(trail.status).toBe(200);
    const games = trail.body.filter((e) => e.operation_id === "createGame");
    // Two creates here (one taken, its duplicate refused) and one in each of two tests above;
    // the unelevated creates are no elevated actions, so no 403 is among them.
    expect(games.map((e) => e.status).sort()).toEqual([201, 201, 201, 409]);
    expect(games[0]).toMatchObject({
      user_id: admin.id,
      user_email: admin.email,
      method: "POST",
      path: "/v2/games",
    });
    expect(trail.body.some((e) => e.method === "GET")).toBe(false);
    expect(JSON.stringify(trail.body)).not.toContain(secretName);
    expect(JSON.stringify(trail.body)).not.toContain("a body the trail must not keep");

    expect((await audit(asAdmin(false))).status).toBe(403);
    expect((await audit({ token: user.token, elevated: true })).status).toBe(403);
  });

  // A client that resets its connection right after sending does not stop the handler: the
  // change was made, and the trail once missed it (only onResponse wrote rows).
  it("records an elevated change whose client left before the answer", async () => {
    const game = await http<{ id: string }>("POST", `${t.url}/v2/games`, {
      ...asAdmin(true),
      body: { name: `left-${Date.now()}` },
    });
    const league = await client(t.url, user.token).post<{ id: string }>("/v2/leagues", {
      name: "Someone else's league",
      game_id: game.body.id,
    });
    expect(league.status).toBe(201);
    const path = `/v2/leagues/${league.body.id}`;
    const { port } = new URL(t.url);
    for (let i = 0; i < 5; i += 1) {
      const body = JSON.stringify({ notes: `left ${i}` });
      await new Promise<void>((resolve, reject) => {
        const socket = createConnection({ host: "127.0.0.1", port: Number(port) }, () => {
          socket.write(
            `PATCH ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\nX-Use-Elevated-Privileges: true\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
            () => {
              socket.resetAndDestroy();
              resolve();
            },
          );
        });
        socket.on("error", reject);
      });
      // The change is made though nobody waits for its answer.
      await eventually(`change ${i}`, async () => {
        const got = await http<{ notes: string | null }>("GET", `${t.url}${path}`, {
          token: user.token,
        });
        return got.body.notes === `left ${i}`;
      });
    }
    const rows = await eventually("a row for every change", async () => {
      const listed = await http<AuditEntry[]>(
        "GET",
        `${t.url}/v2/admin/audit?limit=100`,
        asAdmin(true),
      );
      const mine = listed.body.filter((r) => r.path === path && r.method === "PATCH");
      return mine.length >= 5 ? mine : null;
    });
    expect(rows).toHaveLength(5);
  });
});
