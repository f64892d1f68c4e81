// The bodies an outsider first broke the server with: deep nesting echoed back in a 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

describe("hostile bodies", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a JSON body nested 5,000 levels deep with a 422 that names the depth", async () => {
    const body = `{"name": ${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
    const res = await http<{ detail: { loc: string[]; type: string; msg: string }[] }>(
      "POST",
      `${server.url}/v2/leagues`,
      { token: server.adminToken, body, headers: { "content-type": "application/json" } },
    );
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ["body"], type: "json_too_deep" });
    expect(res.body.detail[0]?.msg).toContain("5001 levels");
  });

  it("echoes at most a bounded part of a wrong input", async () => {
    const res = await http<{ detail: { input?: unknown }[] }>("POST", `${server.url}/v2/leagues`, {
      token: server.adminToken,
      body: { name: "x".repeat(300_000), game_id: "nope" },
    });
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(5000);
  });

  it("does not parse a body sent to no route: 404, however large or malformed", async () => {
    // A broken 4 MB JSON body: parsing it would answer 400; a made-up path answers 404 unread.
    const body = `[${'{"a":1},'.repeat(400_000)}`;
    const res = await http<{ detail: string }>("POST", `${server.url}/v2/no-such-thing`, {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(404);
  });

  it("refuses a form body over 64 KiB before authentication with 413", async () => {
    for (const path of ["/cli-login", "/credentials/auth-codes/exchange", "/web/sign-in"]) {
      const res = await http<{ detail: { type?: string } }>("POST", `${server.url}${path}`, {
        body: { email: "a@b.c", padding: "p".repeat(100_000) },
      });
      expect(res.status, path).toBe(413);
    }
  });

  it("answers a header block over the limit in the documented error shape", async () => {
    const res = await http<{ detail: { type: string } }>("GET", `${server.url}/v2/leagues`, {
      headers: { "x-padding": "p".repeat(20_000) },
    });
    expect(res.status).toBe(431);
    expect(res.body.detail.type).toBe("headers_too_large");
  });
});
