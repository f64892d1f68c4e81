// The web view at `/` in headless Chromium (Debian's chromium with playwright-core): a public
// league's standings, rounds and episodes as an anonymous visitor sees them, a hostile player
// name shown as text, standings that move without a reload, a replay link that opens the
// viewer, the same page under the data host's prefix, and nothing loaded from elsewhere.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RoundPage, TriggerRoundResponse } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

const HOSTILE = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;

let t: TestServer;
let browser: Browser;
let tl: TestLeague;
let runner: ScriptedRunner;
let hostile: TestPlayer;
let secretLeagueName: string;

async function playRound(scores: (job: { players: { display_name: string }[] }) => number[]) {
  const triggered = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  expect(triggered.status, triggered.text).toBe(200);
  const roundId = triggered.body.rounds[0]?.id;
  if (!roundId) throw new Error(`no round started: ${triggered.text}`);
  const jobs = await eventually("the round's jobs", async () => {
    const leased = await runner.lease();
    return leased.length ? leased : null;
  });
  for (const job of jobs) {
    expect(await runner.upload(job, "replay", '{"turns":[]}\n')).toBe(200);
    expect(await runner.complete(job, scores(job))).toBe(200);
  }
  await eventually("the round to settle", async () => {
    const page = (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}`)).body;
    return page.entries.find((r) => r.id === roundId)?.status === "completed";
  });
}

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  runner = await scriptedRunner(t);
  tl = await createTestLeague(t);
  const viewer = await uploadGridrushPlayModule(t.url, tl, "replay_viewer");
  expect(viewer.status).toBe(201);
  const plain = await tl.addPlayer("Plain Jane");
  hostile = await tl.addPlayer(HOSTILE);
  await tl.submit(plain);
  await tl.submit(hostile);
  // The hostile name wins the first round, so it tops the standings.
  await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 3 : 1)));
  const secret = await createTestLeague(t, { public: false });
  secretLeagueName = secret.league.name;
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Visit {
  page: Page;
  requests: string[];
  violations: () => Promise<string[]>;
}

async function visit(url: string): Promise<Visit> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => {
        window.cspViolations.push(e.violatedDirective + " " + e.blockedURI);
      });`,
  });
  await page.goto(url);
  await page.locator(`section[data-league="${tl.league.id}"] table`).first().waitFor({
    timeout: PATIENCE_MS,
  });
  return { page, requests, violations: () => page.evaluate<string[]>("window.cspViolations") };
}

const standingsText = (page: Page) =>
  page.locator(`section[data-league="${tl.league.id}"] .division table`).first().innerText();

describe("the web view at /", () => {
  it("shows the public league's standings, rounds and episodes, a hostile name as text, and loads nothing from elsewhere", async () => {
    const { page, requests, violations } = await visit(`${t.url}/`);
    const league = page.locator(`section[data-league="${tl.league.id}"]`);
    expect(await league.locator("h2").innerText()).toBe(tl.league.name);
    const standings = await standingsText(page);
    // The winner of the round first, its name exactly as chosen: characters, not markup.
    const rows = standings.split("\n").filter((line) => /^\d/.test(line));
    expect(rows[0]).toContain(HOSTILE);
    expect(rows[1]).toContain("Plain Jane");
    expect(await page.evaluate("window.pwned")).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    expect(await league.innerText()).toMatch(/Recent rounds[\s\S]*#1\s+completed/);
    expect(await league.locator("a", { hasText: "replay" }).count()).toBeGreaterThan(0);
    // Only what anyone may see: the private league is not on the page.
    expect(await page.locator("main").innerText()).not.toContain(secretLeagueName);
    const origin = new URL(t.url).origin;
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(await violations()).toEqual([]);
    // The links a visitor needs: the reference and signing in.
    expect(await page.getByRole("link", { name: "API reference" }).getAttribute("href")).toBe(
      "/docs",
    );
    expect(await page.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/cli-login",
    );
    await page.close();
  });

  it("moves the standings without a reload when a round settles", async () => {
    const { page } = await visit(`${t.url}/`);
    expect(await standingsText(page)).toMatch(/^1\s+<img/m);
    await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 0 : 5)));
    await playRound((job) => job.players.map((p) => (p.display_name === HOSTILE ? 0 : 5)));
    await eventually(
      "the page to show Plain Jane on top",
      async () => /^1\s+Plain Jane/m.test(await standingsText(page)),
      PATIENCE_MS,
    );
    await page.close();
  });

  it("opens an episode's replay in the coworld's viewer from its link", async () => {
    const { page } = await visit(`${t.url}/`);
    const link = page
      .locator(`section[data-league="${tl.league.id}"] a`, { hasText: "replay" })
      .first();
    await link.click();
    await page.waitForURL(/\/v2\/play-modules\/[^/]+\/files\/index\.html#replay=/, {
      timeout: PATIENCE_MS,
    });
    await page.close();
  });

  it("works the same under the data host's prefix", async () => {
    const { page, requests } = await visit(t.dataUrl);
    expect(await standingsText(page)).toContain("Plain Jane");
    const apiReads = requests.filter((u) => new URL(u).pathname.includes("/v2/"));
    expect(apiReads.length).toBeGreaterThan(0);
    expect(apiReads.every((u) => new URL(u).pathname.startsWith("/observatory/v2/"))).toBe(true);
    expect(await page.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      "/observatory/cli-login",
    );
    await page.close();
  });

  it("explains a bare /cli-login, and points a browser at the prefix on the data host", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/cli-login`);
    expect(await page.locator("body").innerText()).toContain(
      "This is where the command-line client signs in",
    );
    // The data host serves the sign-in page at its root too (softmax-cli opens it there)...
    const dataRoot = t.dataUrl.replace(/\/observatory$/, "");
    await page.goto(`${dataRoot}/cli-login`);
    expect(await page.locator("h1").innerText()).toBe("Sign in to Gauntlet");
    // ...and the rest of the service only under its prefix.
    const res = await page.goto(`${dataRoot}/docs`);
    expect(res?.status()).toBe(404);
    await page.getByRole("link", { name: "/observatory/docs" }).click();
    await page.waitForURL(/\/observatory\/docs$/, { timeout: PATIENCE_MS });
    await page.close();
  });
});
