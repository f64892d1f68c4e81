// Every HTML page the server writes — each contract operation that answers HTML, found from the
// contract so that a new page cannot be missed — sends a Content-Security-Policy that forbids
// framing, X-Content-Type-Options: nosniff and a Referrer-Policy; coworld-owned pages (play
// module files) run sandboxed in an opaque origin.
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { operations, type HostedGameCreateResponse, type PlayModule } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, GRIDRUSH_DIR, type TestLeague } from "../../testing/test-league.ts";
import { packDirectory } from "../blobs/tarball.ts";

let t: TestServer;
let tl: TestLeague;
beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function expectPageHeaders(headers: Headers, where: string): void {
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp, where).toMatch(/frame-ancestors 'none'/);
  expect(csp, where).toMatch(/default-src '(none|self)'/);
  expect(headers.get("x-content-type-options"), where).toBe("nosniff");
  expect(headers.get("referrer-policy"), where).toBe("no-referrer");
}

describe("HTML pages", () => {
  it("send a CSP without framing, nosniff and a Referrer-Policy, every one of them", async () => {
    const created = await client(t.url, tl.commissioner.token).post<HostedGameCreateResponse>(
      "/v2/coworlds/play/session",
      { coworld_id: tl.coworldId, variant_id: "ffa-4", player_count: 2 },
    );
    // The web view's pages (`/web/…/{id}`) are one shell whatever the id names.
    const params: Record<string, string> = {
      session_id: created.body.session_id,
      id: tl.league.id,
    };
    const signIn = new URLSearchParams({
      email: "nobody@example.test",
      password: "wrong",
      callback: "http://127.0.0.1:9/cb",
    }).toString();
    const forms: Record<string, string> = {
      "/cli-login": signIn,
      "/cli-auth": signIn,
      "/web/sign-in": new URLSearchParams({
        email: "nobody@example.test",
        password: "wrong",
      }).toString(),
    };
    // A join of a full session answers a page (the 404 of a missing game) rather than a redirect: fill it.
    for (let i = 0; i < 2; i += 1)
      await client(t.url).post(`/v2/coworlds/play/session/${created.body.session_id}/join`);
    const callback = `?callback=${encodeURIComponent("http://127.0.0.1:9/cb")}`;
    const queries: Record<string, string> = { "/cli-login": callback, "/cli-auth": callback };
    const pages = Object.values(operations).filter((op) => op.responseKind === "html");
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const op of pages) {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = params[name];
        if (!value) throw new Error(`no value for {${name}} of ${op.id}: add one to this test`);
        return value;
      });
      const res =
        op.method === "GET"
          ? await http("GET", `${t.url}${path}${queries[op.path] ?? ""}`)
          : await http(op.method, `${t.url}${path}`, {
              body: forms[op.path] ?? "",
              headers: { "content-type": "application/x-www-form-urlencoded" },
            });
      expect(res.status, `${op.id}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers.get("content-type"), op.id).toMatch(/^text\/html/);
      expectPageHeaders(res.headers, `${op.id} (${res.status})`);
    }
  });

  it("let the sign-in page's form redirect to its loopback callback, and nowhere else", async () => {
    const res = await http(
      "GET",
      `${t.url}/cli-login?callback=${encodeURIComponent("http://127.0.0.1:4567/cb")}`,
    );
    expect(res.headers.get("content-security-policy")).toContain(
      "form-action 'self' http://127.0.0.1:4567;",
    );
  });

  it("serve a coworld's play module in a sandbox: scripts run, but in an opaque origin", async () => {
    const upload = await fetch(`${t.url}/v2/coworlds/${tl.coworldId}/play-modules`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tl.commissioner.token}`,
        "content-type": "application/octet-stream",
      },
      body: new Uint8Array(await packDirectory(join(GRIDRUSH_DIR, "play", "client"))),
    });
    const module = (await upload.json()) as PlayModule;
    const page = await fetch(module.entry_url);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/^sandbox allow-scripts\b/);
    expect(csp).not.toContain("allow-same-origin");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
