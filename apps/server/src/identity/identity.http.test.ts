import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const ANONYMOUS = {
  subject_type: "anonymous",
  subject_id: null,
  user_email: "unknown",
  owner_user_id: null,
  scopes: [],
  is_admin: false,
  elevated: false,
};

describe("GET /whoami", () => {
  it("is anonymous with no token, and draws on its address's budget", async () => {
    const res = await client(t.url).get("/whoami");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ANONYMOUS);
    expect(res.headers.get("x-ratelimit-mode")).toBe("enforced");
  });

  it("is anonymous with a garbage or malformed token", async () => {
    expect((await client(t.url, "garbage-token").get("/whoami")).body).toEqual(ANONYMOUS);
    const malformed = await http("GET", `${t.url}/whoami`, {
      headers: { authorization: "Basic abc" },
    });
    expect(malformed.status).toBe(200);
    expect(malformed.body).toEqual(ANONYMOUS);
  });

  it("names the user for a user token", async () => {
    const user = await t.newUser();
    const res = await client(t.url, user.token).get("/whoami");
    expect(res.body).toEqual({
      subject_type: "user",
      subject_id: user.id,
      user_email: user.email,
      owner_user_id: user.id,
      scopes: ["user"],
      is_admin: false,
      elevated: false,
    });
    expect(res.headers.get("x-complexity")).toBe("1");
  });

  it("says admin for the first admin", async () => {
    const res = await client(t.url, t.adminToken).get<{ is_admin: boolean; user_email: string }>(
      "/whoami",
    );
    expect(res.body.is_admin).toBe(true);
    expect(res.body.user_email).toBe("admin@localhost");
  });
});

describe("X-Auth-Token (the hosted service's cogames client)", () => {
  it("is the same token as Authorization: Bearer, with the same budget", async () => {
    // A minute bucket of 10 refills one request every 6 s, so the count below cannot be topped
    // up between the two requests however slow the machine (the default refills every 25 ms).
    const slow = await startTestServer({
      env: { GAUNTLET_USER_CAPACITIES: JSON.stringify({ requestsPerMinute: 10 }) },
    });
    try {
      const user = await slow.newUser();
      const viaHeader = await http<{ subject_type: string; subject_id: string }>(
        "GET",
        `${slow.url}/whoami`,
        { headers: { "x-auth-token": user.token } },
      );
      expect(viaHeader.body).toMatchObject({ subject_type: "user", subject_id: user.id });
      // Both requests drew on one budget: the second shows one request fewer remaining.
      const first = Number(viaHeader.headers.get("x-ratelimit-requests-minute-remaining"));
      const viaBearer = await client(slow.url, user.token).get("/whoami");
      const second = Number(viaBearer.headers.get("x-ratelimit-requests-minute-remaining"));
      expect(first).toBeGreaterThan(0);
      expect(second).toBe(first - 1);
      const required = await http("GET", `${slow.url}/v2/tokens`, {
        headers: { "x-auth-token": user.token },
      });
      expect(required.status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it("refuses an unknown X-Auth-Token where a token is required, and lets Authorization win", async () => {
    const unknown = await http("GET", `${t.url}/v2/tokens`, {
      headers: { "x-auth-token": "not-a-token" },
    });
    expect(unknown.status).toBe(401);
    const a = await t.newUser();
    const b = await t.newUser();
    // A second header never changes who the request runs as.
    const both = await http<{ subject_id: string }>("GET", `${t.url}/whoami`, {
      token: a.token,
      headers: { "x-auth-token": b.token },
    });
    expect(both.body.subject_id).toBe(a.id);
  });
});

describe("default players", () => {
  it("makes a user's first player for them, marked is_default, with user_id", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const first = await api.get<{ id: string; is_default: boolean; user_id: string }[]>("/players");
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0]).toMatchObject({ is_default: true, user_id: user.id, disabled_at: null });
    // Asking again makes no second one; a player made later is not the default.
    const later = await api.post<{ id: string; is_default: boolean }>("/players", { name: "b2" });
    expect(later.body.is_default).toBe(false);
    const again = await api.get<{ id: string; is_default: boolean }[]>("/players");
    expect(again.body.map((p) => [p.id, p.is_default])).toEqual([
      [first.body[0]?.id, true],
      [later.body.id, false],
    ]);
  });
});

describe("tokens", () => {
  it("creates a token shown once, lists it without its value, and revokes it", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const created = await api.post<{ id: string; token: string; kind: string }>("/v2/tokens", {
      name: "laptop",
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^gnt_/);
    expect(
      (await client(t.url, created.body.token).get<{ subject_type: string }>("/whoami")).body
        .subject_type,
    ).toBe("user");
    const list = await api.get<{ id: string; token?: string }[]>("/v2/tokens");
    const listed = list.body.find((x) => x.id === created.body.id);
    expect(listed).toBeDefined();
    expect(listed?.token).toBeUndefined();
    expect((await api.delete(`/v2/tokens/${created.body.id}`)).status).toBe(200);
    const after = await client(t.url, created.body.token).get<{ subject_type: string }>("/whoami");
    expect(after.body.subject_type).toBe("anonymous");
    expect((await client(t.url, created.body.token).get("/v2/tokens")).status).toBe(401);
  });

  it("does not let one user revoke another's token (404)", async () => {
    const a = await t.newUser();
    const b = await t.newUser();
    const created = await client(t.url, a.token).post<{ id: string }>("/v2/tokens", { name: "x" });
    const res = await client(t.url, b.token).delete<{ detail: { type: string } }>(
      `/v2/tokens/${created.body.id}`,
    );
    expect(res.status).toBe(404);
    expect(res.body.detail.type).toBe("not_found");
  });

  it("gives machine tokens to admins only, with a machine identity of their own", async () => {
    const user = await t.newUser();
    const denied = await client(t.url, user.token).post<{ detail: { type: string } }>(
      "/v2/tokens",
      { name: "r", kind: "machine", machine_name: "runner-1" },
    );
    expect(denied.status).toBe(403);
    expect(denied.body.detail.type).toBe("forbidden");
    const created = await client(t.url, t.adminToken).post<{ token: string; machine_name: string }>(
      "/v2/tokens",
      { name: "r", kind: "machine", machine_name: "runner-1" },
    );
    expect(created.status).toBe(201);
    expect(created.body.machine_name).toBe("runner-1");
    const who = await client(t.url, created.body.token).get<{
      subject_type: string;
      subject_id: string;
      is_admin: boolean;
    }>("/whoami");
    expect(who.body.subject_type).toBe("machine");
    expect(who.body.subject_id).toMatch(/^mach_/);
    expect(who.body.is_admin).toBe(false);
  });

  it("needs a token to create one (401 with the error body)", async () => {
    const res = await client(t.url).post<{ detail: { type: string; message: string } }>(
      "/v2/tokens",
      { name: "x" },
    );
    expect(res.status).toBe(401);
    expect(res.body.detail.type).toBe("unauthorized");
  });

  it("rejects a garbage token on a non-whoami route with 401", async () => {
    const res = await client(t.url, "nope").get<{ detail: { type: string } }>("/v2/leagues");
    expect(res.status).toBe(401);
    expect(res.body.detail.type).toBe("unauthorized");
  });
});

describe("players", () => {
  it("creates players, signs in as one with a 24-hour ply_ token that acts as the player", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const player = await api.post<{ id: string; name: string; owner_user_id: string }>("/players", {
      name: "bot-1",
    });
    expect(player.status).toBe(201);
    expect(player.body.id).toMatch(/^ply_[0-9a-f-]{36}$/);
    expect((await api.get<unknown[]>("/players")).body).toHaveLength(1);
    const login = await api.post<{ player_id: string; token: string; expires_at: string }>(
      `/players/${player.body.id}/login`,
    );
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^ply_/);
    const hours = (Date.parse(login.body.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const who = await client(t.url, login.body.token).get("/whoami");
    expect(who.body).toEqual({
      subject_type: "player",
      subject_id: player.body.id,
      user_email: user.email,
      owner_user_id: user.id,
      scopes: ["player"],
      is_admin: false,
      elevated: false,
    });
  });

  it("hides another user's player (404) and validates the id pattern (422)", async () => {
    const a = await t.newUser();
    const b = await t.newUser();
    const player = await client(t.url, a.token).post<{ id: string }>("/players", { name: "p" });
    expect((await client(t.url, b.token).post(`/players/${player.body.id}/login`)).status).toBe(
      404,
    );
    const bad = await client(t.url, a.token).post<{ detail: { loc: unknown[]; type: string }[] }>(
      "/players/not-a-player/login",
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(["path", "player_id"]);
  });

  it("issues, lists and revokes long-lived player credentials", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const player = await api.post<{ id: string }>("/players", { name: "p" });
    const cred = await api.post<{ token: string; id: string }>(
      `/players/${player.body.id}/credentials`,
      { name: "ci" },
    );
    expect(cred.status).toBe(201);
    expect(
      (await client(t.url, cred.body.token).get<{ subject_type: string }>("/whoami")).body
        .subject_type,
    ).toBe("player");
    const listed = await api.get<{ id: string; token?: string }[]>(
      `/players/${player.body.id}/credentials`,
    );
    expect(listed.body.map((c) => c.id)).toEqual([cred.body.id]);
    expect(listed.body[0]?.token).toBeUndefined();
    expect(
      (await api.delete<{ revoked: number }>(`/players/${player.body.id}/credentials`)).body,
    ).toEqual({ revoked: 1 });
    expect(
      (await client(t.url, cred.body.token).get<{ subject_type: string }>("/whoami")).body
        .subject_type,
    ).toBe("anonymous");
  });

  it("answers credentials in cogames' shape (UUID ids, token_preview, scopes) and revokes one by its id", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const player = await api.post<{ id: string }>("/players", { name: "p" });
    const make = (name: string) =>
      api.post<{ id: string; token: string; token_preview: string; scopes: string[] }>(
        `/players/${player.body.id}/credentials`,
        { name, scopes: ["write"] },
      );
    const [a, b] = [await make("a"), await make("b")];
    expect(a.status).toBe(201);
    expect(a.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.body).toMatchObject({ token_preview: "ply_…", scopes: ["write"], expires_at: null });
    // The preview gives away nothing of the secret.
    expect(a.body.token.startsWith(a.body.token_preview.replace("…", ""))).toBe(true);
    expect(a.body.token_preview).not.toContain(a.body.token.slice(4, 8));
    const path = `/players/${player.body.id}/credentials`;
    const revoked = await api.delete<{ id: string }>(`${path}/${a.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: a.body.id });
    expect((await client(t.url, a.body.token).get("/validate")).body).toEqual({ valid: false });
    expect((await client(t.url, b.body.token).get("/validate")).body).toEqual({ valid: true });
    expect((await api.get<{ id: string }[]>(path)).body.map((c) => c.id)).toEqual([b.body.id]);
    // Revoked already: the same answer; unknown or another user's: 404; not a UUID: 422.
    expect((await api.delete<{ id: string }>(`${path}/${a.body.id}`)).body).toEqual({
      id: a.body.id,
    });
    expect((await api.delete(`${path}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const stranger = await t.newUser();
    expect((await client(t.url, stranger.token).delete(`${path}/${b.body.id}`)).status).toBe(404);
    expect((await api.delete(`${path}/pcred_${b.body.id}`)).status).toBe(422);
    expect((await api.post(path, { name: "x", scopes: ["admin"] })).status).toBe(422);
  });
});

describe("command-line sign-in", () => {
  it("serves a sign-in page, redirects to the callback with a one-time code, and exchanges it once", async () => {
    const user = await t.newUser();
    const callback = "http://127.0.0.1:9/callback";
    const page = await http(
      "GET",
      `${t.url}/cli-auth?callback=${encodeURIComponent(callback)}&state=xyz`,
    );
    expect(page.status).toBe(200);
    expect(page.text).toContain("<form");
    const form = new URLSearchParams({
      email: user.email,
      password: "correct horse battery",
      callback,
      state: "xyz",
    });
    const res = await http("POST", `${t.url}/cli-auth`, {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe(callback);
    expect(location.searchParams.get("state")).toBe("xyz");
    const code = location.searchParams.get("code");
    expect(code).toBeTruthy();
    const exchanged = await client(t.url).post<{ token: string }>(
      "/credentials/auth-codes/exchange",
      { code },
    );
    expect(exchanged.status).toBe(200);
    expect(
      (await client(t.url, exchanged.body.token).get<{ user_email: string }>("/whoami")).body
        .user_email,
    ).toBe(user.email);
    // A used code is 410 (gone), a malformed one 400, as the hosted service's clients expect.
    const again = await client(t.url).post<{ detail: { type: string } }>(
      "/credentials/auth-codes/exchange",
      { code },
    );
    expect(again.status).toBe(410);
    expect(again.body.detail.type).toBe("gone");
    const malformed = await client(t.url).post<{ detail: { type: string } }>(
      "/credentials/auth-codes/exchange",
      { code: "not-a-code" },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail.type).toBe("bad_request");
  });

  it("without a callback, /cli-auth shows the code to paste", async () => {
    const user = await t.newUser();
    const page = await http("GET", `${t.url}/cli-auth`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="cli-auth"');
    expect(page.text).toContain("one-time code");
    const res = await http("POST", `${t.url}/cli-auth`, {
      body: new URLSearchParams({
        email: user.email,
        password: "correct horse battery",
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    const code = /<code id="code">([^<]+)<\/code>/.exec(res.text)?.[1];
    expect(code).toMatch(/^gcode_/);
    // `softmax exchange-code <code>`: the pasted code becomes a token, which /validate accepts.
    const exchanged = await client(t.url).post<{ token: string }>(
      "/credentials/auth-codes/exchange",
      { code },
    );
    expect(exchanged.status).toBe(200);
    const valid = await client(t.url, exchanged.body.token).get<{ valid: boolean }>("/validate");
    expect(valid.body).toEqual({ valid: true });
    expect((await client(t.url, "gnt_nonsense").get("/validate")).body).toEqual({ valid: false });
    expect((await client(t.url).get("/validate")).body).toEqual({ valid: false });
  });

  it("gives the token itself at /cli-login (the softmax-cli version coworld pins): in the callback, or shown to paste", async () => {
    const user = await t.newUser();
    const signIn = (callback?: string) =>
      http("POST", `${t.url}/cli-login`, {
        body: new URLSearchParams({
          email: user.email,
          password: "correct horse battery",
          ...(callback ? { callback, state: "s1" } : {}),
        }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    const redirected = await signIn("http://127.0.0.1:9/callback");
    expect(redirected.status).toBe(302);
    const location = new URL(redirected.headers.get("location") ?? "");
    expect(location.searchParams.get("code")).toBeNull();
    expect(location.searchParams.get("state")).toBe("s1");
    const token = location.searchParams.get("token") ?? "";
    expect(token).toMatch(/^gnt_/);
    expect((await client(t.url, token).get("/validate")).body).toEqual({ valid: true });
    expect(
      (await client(t.url, token).get<{ user_email: string }>("/whoami")).body.user_email,
    ).toBe(user.email);
    const shown = await signIn();
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    const pasted = /<code id="token">([^<]+)<\/code>/.exec(shown.text)?.[1] ?? "";
    expect((await client(t.url, pasted).get("/validate")).body).toEqual({ valid: true });
  });

  it("shows the form again on a wrong password and never redirects", async () => {
    const user = await t.newUser();
    const form = new URLSearchParams({
      email: user.email,
      password: "wrong password",
      callback: "http://localhost:1/cb",
    });
    const res = await http("POST", `${t.url}/cli-login`, {
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain("Wrong email or password.");
    expect(res.headers.get("location")).toBeNull();
  });

  it("refuses a callback that is not on the caller's machine", async () => {
    const res = await client(t.url).get<{ detail: { loc: unknown[] }[] }>(
      `/cli-login?callback=${encodeURIComponent("https://evil.example/cb")}`,
    );
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.loc).toEqual(["query", "callback"]);
  });
});

describe("optional bodies and malformed URLs", () => {
  it("fills an omitted optional body with its defaults", async () => {
    const user = await t.newUser();
    const player = await client(t.url, user.token).post<{ id: string }>("/players", { name: "p" });
    const res = await http<{ name: string }>(
      "POST",
      `${t.url}/players/${player.body.id}/credentials`,
      { token: user.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("default");
  });

  it("answers a malformed URL with the error body", async () => {
    const res = await http<{ detail: { type: string } }>("GET", `${t.url}/v2/leagues/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.body.detail.type).toBe("bad_request");
  });
});
