// `softmax login --server http://localhost:<port>` against the data host: softmax-cli opens its
// browser pages at the server's root (`{server less /api}/cli-auth`, or `/cli-login` in the
// version coworld pins) and calls the API under `/observatory` on the same host.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
/** softmax-cli's loopback callback: it keeps the query of each request it receives. */
let callbackServer: Server;
let callbackUrl: string;
const received: URLSearchParams[] = [];

beforeAll(async () => {
  t = await startTestServer();
  callbackServer = createServer((req, res) => {
    received.push(new URL(req.url ?? "/", "http://127.0.0.1").searchParams);
    res.writeHead(200, { "content-type": "text/html" }).end("<p>You're all set!</p>");
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => callbackServer.close(() => resolve()));
  await t.close();
});

/** softmax-cli's `build_browser_login_url`: the server less a trailing `/api`, plus the page. */
function browserLoginUrl(server: string, page: "cli-auth" | "cli-login"): string {
  const parsed = new URL(server);
  const path = parsed.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${parsed.origin}${path}/${page}?${new URLSearchParams({ callback: callbackUrl }).toString()}`;
}

/**
 * A browser stand-in: opens the sign-in page, fills in its form and posts it where the form's
 * action resolves against the page's address (as a browser does), then follows the redirect to
 * the loopback callback. Returns what the callback received.
 */
async function signInThroughBrowser(
  address: string,
  email: string,
): Promise<URLSearchParams | undefined> {
  const page = await http("GET", address, { headers: { accept: "text/html" } });
  expect(page.status).toBe(200);
  const form = /<form method="post" action="([^"]+)">/.exec(page.text);
  const hidden = [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  expect(form?.[1]).toBeDefined();
  const fields = new URLSearchParams({ email, password: "correct horse battery" });
  for (const [, name, value] of hidden) if (name && value !== undefined) fields.set(name, value);
  const before = received.length;
  const posted = await http("POST", new URL(form?.[1] ?? "", address).toString(), {
    body: fields.toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: new URL(address).origin,
    },
  });
  expect(posted.status).toBe(302);
  await http("GET", posted.headers.get("location") ?? "");
  return received[before];
}

describe("softmax login --server http://localhost:<port> (the data host)", () => {
  it("signs in at /cli-auth at the root, exchanges the code and reads /whoami under /observatory", async () => {
    const user = await t.newUser();
    const server = t.dataUrl.replace(/\/observatory$/, "");
    const query = await signInThroughBrowser(browserLoginUrl(server, "cli-auth"), user.email);
    const code = query?.get("code") ?? "";
    expect(code).toMatch(/^gcode_/);
    const exchanged = await http<{ token: string }>(
      "POST",
      `${server}/observatory/credentials/auth-codes/exchange`,
      { body: { code } },
    );
    expect(exchanged.status).toBe(200);
    const whoami = await http<{ user_email: string }>("GET", `${server}/observatory/whoami`, {
      token: exchanged.body.token,
    });
    expect(whoami.body.user_email).toBe(user.email);
  });

  it("signs in at /cli-login at the root (the version coworld pins): the token in the callback", async () => {
    const user = await t.newUser();
    const server = t.dataUrl.replace(/\/observatory$/, "");
    const query = await signInThroughBrowser(browserLoginUrl(server, "cli-login"), user.email);
    const token = query?.get("token") ?? "";
    expect(token).toMatch(/^gnt_/);
    const valid = await http("GET", `${server}/observatory/validate`, { token });
    expect(valid.body).toEqual({ valid: true });
  });

  it("still serves the pages under the prefix, and only the sign-in pages at the data host's root", async () => {
    const server = t.dataUrl.replace(/\/observatory$/, "");
    expect((await http("GET", `${t.dataUrl}/cli-auth`)).status).toBe(200);
    // Opened by hand at the root, its link to the front page goes under the prefix.
    expect((await http("GET", `${server}/cli-login`)).text).toContain('href="/observatory/"');
    expect((await http("GET", `${server}/whoami`)).status).toBe(404);
    expect((await http("GET", `${server}/cli-authx`)).status).toBe(404);
  });
});
