// The status line while the SDK retries, with a real client against a server that fails and then
// answers: plain words while it retries, and the line gone once the server is back.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";

import { connectionNotices } from "./connection-notices.ts";
import { Notices } from "./notices.ts";

const LEAGUE = "league_00000000-0000-4000-8000-000000000001";
let server: Server;
let url = "";
/** How many of the next requests fail (with 503 and no body a client can use). */
let failing = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    if (failing > 0) {
      failing -= 1;
      res.writeHead(503, { "content-type": "application/json" }).end("{}");
      return;
    }
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(
        JSON.stringify({ type: "not_found", title: "Not Found", status: 404, detail: "no league" }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

describe("connection notices", () => {
  it("say what is wrong without naming an SDK method, and go once the server answers", async () => {
    const notices = new Notices();
    const shown: string[] = [];
    notices.subscribe(() => shown.push(notices.latest?.text ?? "(clear)"));
    const client = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: url,
      token: null,
      retries: { maxRetries: 3, backoffBaseMs: 10, backoffMaxMs: 20, maxJitterMs: 0 },
      ...connectionNotices(notices),
    });
    failing = 2;
    // Any answer that is not trouble clears the line, a 404 too.
    await expect(client.leagues.get({ league_id: LEAGUE })).rejects.toThrow();
    expect(shown).toEqual(["the server had a problem; trying again in 1s", "(clear)"]);
    expect(shown.join(" ")).not.toMatch(/getLeague|retrying/);
    expect(notices.latest).toBeNull();
  });

  it("leave a later notice alone", async () => {
    const notices = new Notices();
    const { onRetry, fetch } = connectionNotices(notices, () =>
      Promise.resolve(new Response("{}", { status: 200 })),
    );
    const client = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: url,
      token: null,
      retries: { maxRetries: 1, backoffBaseMs: 10, backoffMaxMs: 10, maxJitterMs: 0 },
      onRetry: (event) => {
        onRetry(event);
        // Something else is reported while the retry waits: it stays.
        notices.report("error", "standings: not allowed (403)");
      },
    });
    failing = 1;
    await expect(client.leagues.get({ league_id: LEAGUE })).rejects.toThrow();
    await fetch(url);
    expect(notices.latest?.text).toBe("standings: not allowed (403)");
  });
});
