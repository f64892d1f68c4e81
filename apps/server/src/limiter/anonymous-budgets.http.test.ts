// Anonymous callers' budgets over real HTTP: one per client address — the socket's peer, or the
// client X-Forwarded-For names when the peer is a trusted proxy — with the 429 and headers every
// budget has, while the probes stay unbudgeted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ANONYMOUS_CAPACITIES } from "@gauntlet/core";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

// Two reads of complexity 10 fit; none comes back while a test runs (a credit per 144 s).
const SMALL = JSON.stringify({ complexityPerHour: 25 });

let defaults: TestServer;
let direct: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  // Test servers raise the anonymous allowance for tests' own polling (testing/test-capacities.ts);
  // this one runs at the defaults.
  defaults = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_ANONYMOUS_CAPACITIES: JSON.stringify(ANONYMOUS_CAPACITIES),
    },
  });
  direct = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_ANONYMOUS_CAPACITIES: SMALL },
  });
  proxied = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_ANONYMOUS_CAPACITIES: SMALL,
      GAUNTLET_TRUSTED_PROXIES: "127.0.0.1",
    },
  });
}, 60_000);

afterAll(async () => {
  for (const t of [defaults, direct, proxied]) await t?.close();
});

const leagues = (t: TestServer, headers: Record<string, string> = {}) =>
  http("GET", `${t.url}/v2/leagues`, { headers });

describe("anonymous budgets", () => {
  it("a flood of anonymous reads from one address gets 429 with Retry-After at the defaults, while tokens and probes are served", async () => {
    const user = await defaults.newUser();
    // The finding's flood: eight clients reading a division's pairwise results back to back.
    // The defaults (6,000 complexity a minute, pairwise costs 20) refuse it within 400 reads.
    const pairwise = `${defaults.url}/v2/divisions/00000000-0000-4000-8000-000000000000/pairwise`;
    const statuses: number[] = [];
    let refused: Response | undefined;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 50; i++) {
          const res = await fetch(pairwise);
          await res.arrayBuffer();
          statuses.push(res.status);
          if (res.status === 429) refused ??= res;
        }
      }),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(50);
    expect(refused?.headers.get("content-type")).toMatch(/json/);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused?.headers.get("x-ratelimit-outcome")).toBe("rejected");
    expect(refused?.headers.get("x-ratelimit-complexity-minute-limit")).toBe("6000");
    // Someone signed in from the same address, and the probes, are not held by the flood.
    expect((await client(defaults.url, user.token).get("/v2/leagues")).status).toBe(200);
    expect((await http("GET", `${defaults.url}/healthz`)).status).toBe(200);
    expect((await http("GET", `${defaults.url}/readyz`)).status).toBe(200);
    expect((await http("GET", `${defaults.url}/`)).status).toBe(200);
  });

  it("an untrusted peer's X-Forwarded-For is ignored: the socket's address pays", async () => {
    expect((await leagues(direct, { "x-forwarded-for": "10.0.0.1" })).status).toBe(200);
    expect((await leagues(direct, { "x-forwarded-for": "10.0.0.2" })).status).toBe(200);
    const third = await leagues(direct, { "x-forwarded-for": "10.0.0.3" });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ detail: { type: "api_rate_limit_exceeded" } });
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("behind a trusted proxy each client named by X-Forwarded-For has its own budget", async () => {
    const from = (address: string) => ({ "x-forwarded-for": address });
    expect((await leagues(proxied, from("203.0.113.7"))).status).toBe(200);
    expect((await leagues(proxied, from("203.0.113.7"))).status).toBe(200);
    expect((await leagues(proxied, from("203.0.113.7"))).status).toBe(429);
    // Another client of the proxy, and the IPv6 clients of two different /64s, are not held.
    expect((await leagues(proxied, from("203.0.113.8"))).status).toBe(200);
    expect((await leagues(proxied, from("2001:db8:1:2::a"))).status).toBe(200);
    expect((await leagues(proxied, from("2001:db8:1:2::b"))).status).toBe(200);
    expect((await leagues(proxied, from("2001:db8:1:2:ffff::c"))).status).toBe(429);
    expect((await leagues(proxied, from("2001:db8:1:3::a"))).status).toBe(200);
    // A client cannot name itself another address: the proxy appends the peer it saw.
    const spoofed = await leagues(proxied, from("10.9.9.9, 203.0.113.7"));
    expect(spoofed.status).toBe(429);
  });
});
