// The web view signed in, in headless Chromium on a real server: a person signs in on
// `/web/sign-in` with the CLI's email and password, then sees their private league and the log
// of their own policy in an episode of it — which an anonymous browser does not — submits a policy
// version from the league page and sees the submission, and signs out. The session cookie is
// HttpOnly and SameSite=Strict, and it acts as nobody without the CSRF header only the site's own
// pages learn. Each signed-in page is screenshot at 375 and 1440 px (and the episode page in
// dark) into the test reports (CI keeps them).
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, LeagueSubmission, TriggerRoundResponse } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { openSocket } from "../../testing/test-socket.ts";

const SCREENSHOTS = join(
  process.env.GAUNTLET_TEST_REPORT_DIR ?? join(import.meta.dirname, "../../test-artifacts"),
  "web-view",
);
const LOG_MARKER = "seat-zero-log-only-its-owner-reads";
const PASSWORD = "correct horse battery";

let t: TestServer;
let browser: Browser;
let owner: { id: string; email: string; token: string };
let secret: TestLeague;
let sam: TestPlayer;
let laterVersion = "";
let episodeId = "";
let runner: Awaited<ReturnType<typeof scriptedRunner>>;

/** Plays a round of the private league: each episode's seat 0 scores `first`. */
async function playRound(first: number): Promise<string[]> {
  const triggered = await client(t.url, owner.token).post<TriggerRoundResponse>(
    `/v2/leagues/${secret.league.id}/trigger-round`,
    {},
  );
  expect(triggered.status, triggered.text).toBe(200);
  const jobs = await eventually("the round's jobs", async () => {
    const leased = await runner.lease();
    return leased.length ? leased : null;
  });
  for (const job of jobs) {
    expect(await runner.upload(job, "replay", '{"turns":[]}\n')).toBe(200);
    expect(await runner.upload(job, "policy-log-0", `${LOG_MARKER}\n`)).toBe(200);
    expect(await runner.complete(job, [first, 1 - first])).toBe(200);
  }
  const ids = jobs.map((j) => j.episode_request_id);
  await eventually("the round's episodes to complete", async () => {
    const all = await Promise.all(
      ids.map((id) => client(t.url, owner.token).get<EpisodeRequest>(`/v2/episode-requests/${id}`)),
    );
    return all.every((e) => e.body.status === "completed");
  });
  return ids;
}

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  owner = await t.newUser();
  secret = await createTestLeague(t, { public: false, commissioner: owner });
  expect((await uploadGridrushPlayModule(t.url, secret, "replay_viewer")).status).toBe(201);
  sam = await secret.addPlayer("Secret Sam");
  const sue = await secret.addPlayer("Secret Sue");
  await secret.submit(sam);
  await secret.submit(sue);
  laterVersion = await secret.addVersion(sam, "sam-later");
  runner = await scriptedRunner(t);
  episodeId = (await playRound(1))[0] ?? "";
  browser = await launchTestBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
}, 30_000);

/** Opens a page in `context` and waits until its script has drawn it. */
async function visit(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${t.url}${path}`);
  await page.locator("main[data-drawn]").waitFor({ timeout: PATIENCE_MS });
  await page.locator("main", { hasNotText: "Loading…" }).waitFor({ timeout: PATIENCE_MS });
  return page;
}

async function signIn(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${t.url}/`);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${t.url}/`);
  await page.locator("#account", { hasText: owner.email }).waitFor({ timeout: PATIENCE_MS });
  await page.close();
}

describe("the web view signed in", () => {
  it("shows an anonymous browser neither the private league nor the episode's log", async () => {
    const context = await browser.newContext();
    const home = await visit(context, "/");
    expect(await home.content()).not.toContain(secret.league.name);
    const league = await visit(context, `/web/leagues/${secret.league.id}`);
    expect(await league.locator("main").innerText()).toContain("Not found");
    const episode = await visit(context, `/web/episodes/${episodeId}`);
    expect(await episode.content()).not.toContain(LOG_MARKER);
    await context.close();
  });

  it("signs in with the CLI's password, then shows the private league, its replay and the owner's log", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const cookie = (await context.cookies()).find((c) => c.name === "gauntlet_web");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    const home = await visit(context, "/");
    expect(await home.locator("main").innerText()).toContain(secret.league.name);
    expect(await home.locator("main").innerText()).toContain("Your evaluations");
    // The script cannot read the credential.
    expect(await home.evaluate("document.cookie")).not.toContain("gauntlet_web");
    const episode = await visit(context, `/web/episodes/${episodeId}`);
    await episode.locator("pre.log", { hasText: LOG_MARKER }).waitFor({ timeout: PATIENCE_MS });
    // The private episode's replay plays in the page: its viewer, opened as the signed-in user.
    expect(await episode.locator("iframe.replay").getAttribute("src")).toMatch(
      /\/v2\/play-modules\/[^/]+\/files\/index\.html#replay=/,
    );
    await episode
      .frameLocator("iframe.replay")
      .locator("body")
      .waitFor({ state: "attached", timeout: PATIENCE_MS });
    await context.close();
  });

  it("signs in the same under the data host's prefix, and lands on its front page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.dataUrl}/`);
    await page.getByRole("link", { name: "Sign in" }).click();
    expect(new URL(page.url()).pathname).toBe("/observatory/web/sign-in");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${t.dataUrl}/`);
    await page.locator("main", { hasText: secret.league.name }).waitFor({ timeout: PATIENCE_MS });
    await page.locator("#status", { hasText: "live" }).waitFor({ timeout: PATIENCE_MS });
    await context.close();
  });

  it("submits a policy version from the league page and shows the submission", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const page = await visit(context, `/web/leagues/${secret.league.id}`);
    await page.getByLabel("Policy version").selectOption(laterVersion);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.locator("#submit-said", { hasText: "Submitted sam-later" }).waitFor();
    await page
      .locator(".your-submissions table", { hasText: "sam-later" })
      .waitFor({ timeout: PATIENCE_MS });
    const mine = await client(t.url, owner.token).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${secret.league.id}&mine=true`,
    );
    expect(mine.body.map((s) => s.policy_version.id)).toContain(laterVersion);
    await context.close();
  });

  it("works with the keyboard alone: Tab reaches sign-out and the submit form, with a visible focus, and Enter submits", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const page = await visit(context, `/web/leagues/${secret.league.id}`);
    const focusedId = () => page.evaluate<string>("document.activeElement?.id ?? ''");
    const reached = new Set<string>();
    for (let i = 0; i < 40 && !reached.has("submit-version"); i++) {
      await page.keyboard.press("Tab");
      reached.add(await focusedId());
    }
    expect([...reached]).toEqual(expect.arrayContaining(["sign-out", "submit-version"]));
    expect(
      await page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle"),
    ).not.toBe("none");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page
      .locator("#submit-said", { hasText: /Submitted|Not submitted/ })
      .waitFor({ timeout: PATIENCE_MS });
    await context.close();
  });

  it("counts the cookie only beside its CSRF header, tells no other site the CSRF value, and signs out", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const cookie = (await context.cookies()).find((c) => c.name === "gauntlet_web");
    const jar = `gauntlet_web=${cookie?.value ?? ""}`;
    const session = await client(t.url).get<{ csrf: string }>("/web/session", {
      headers: { cookie: jar, "sec-fetch-site": "same-origin" },
    });
    expect(session.body.csrf).toMatch(/\S{20,}/);
    const asked = (headers: Record<string, string>) =>
      client(t.url).get(`/v2/leagues/${secret.league.id}`, {
        headers: { cookie: jar, ...headers },
      });
    expect((await asked({})).status).toBe(404);
    expect((await asked({ "x-gauntlet-csrf": "guess" })).status).toBe(404);
    expect((await asked({ "x-gauntlet-csrf": session.body.csrf })).status).toBe(200);
    const foreign = await client(t.url).get<{ signed_in: boolean; csrf: null }>("/web/session", {
      headers: { cookie: jar, "sec-fetch-site": "same-site" },
    });
    expect(foreign.body).toMatchObject({ signed_in: false, csrf: null });
    const posted = await client(t.url).post(
      "/v2/league-submissions",
      { league_id: secret.league.id, policy_version_id: laterVersion },
      { headers: { cookie: jar } },
    );
    expect(posted.status).toBe(401);

    const page = await visit(context, "/");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor({ timeout: PATIENCE_MS });
    expect(await page.locator("main").innerText()).not.toContain(secret.league.name);
    expect((await asked({ "x-gauntlet-csrf": session.body.csrf })).status).toBe(401);
    await context.close();
  });

  it("follows a private division live when signed in: it says live and its standings move", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const division = secret.divisions[0]?.id ?? "";
    const page = await visit(context, `/web/divisions/${division}`);
    await page.locator("#status", { hasText: "live" }).waitFor({ timeout: PATIENCE_MS });
    await page.evaluate("window.sameDocument = true");
    const standings = () => page.locator("main table").first().innerText();
    const before = await standings();
    await playRound(0);
    await eventually(
      "the private standings to move on the open page",
      async () => (await standings()) !== before,
    );
    expect(await page.evaluate("window.sameDocument")).toBe(true);
    await context.close();
  }, 120_000);

  it("takes the cookie on a live socket only from this site's own page", async () => {
    const context = await browser.newContext();
    await signIn(context);
    const cookie = (await context.cookies()).find((c) => c.name === "gauntlet_web");
    await context.close();
    const topic = `league:${secret.league.id}`;
    const accepted = async (headers: Record<string, string>) => {
      const socket = openSocket(t.url, undefined, {
        cookie: `gauntlet_web=${cookie?.value ?? ""}`,
        ...headers,
      });
      const { topics } = await socket.subscribe([topic]);
      socket.close();
      return topics;
    };
    expect(await accepted({ origin: t.url })).toEqual([topic]);
    expect(await accepted({ origin: "http://localhost:9" })).toEqual([]);
    expect(await accepted({ origin: "null" })).toEqual([]);
    expect(await accepted({})).toEqual([]);
  });

  it("says on a failed episode's page why it failed and whose seat failed, with no replay frame", async () => {
    const triggered = await client(t.url, owner.token).post<TriggerRoundResponse>(
      `/v2/leagues/${secret.league.id}/trigger-round`,
      {},
    );
    expect(triggered.status, triggered.text).toBe(200);
    const jobs = await eventually("the round's jobs", async () => {
      const leased = await runner.lease();
      return leased.length ? leased : null;
    });
    const [failing, ...rest] = jobs;
    if (!failing) throw new Error("no job");
    const failed = await runner.fail(failing, {
      error_type: "out_of_memory",
      error: "seat over its memory limit",
      failed_policy_index: 1,
    });
    expect(failed.status, failed.text).toBe(200);
    for (const job of rest) expect(await runner.complete(job, [1, 0])).toBe(200);
    const context = await browser.newContext();
    await signIn(context);
    const page = await visit(context, `/web/episodes/${failing.episode_request_id}`);
    const text = await page.locator("main").innerText();
    expect(text).toMatch(/status\s+failed/);
    expect(text).toMatch(/why it failed\s+out_of_memory: seat over its memory limit/);
    expect(text).toContain("(failed)");
    expect(await page.locator("iframe.replay").count()).toBe(0);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({
        path: join(SCREENSHOTS, `signed-in-episode-failed-${width}.png`),
        fullPage: true,
      });
    }
    await context.close();
  });

  it("writes each signed-in page at 375 and 1440 px, readable, in light and dark", async () => {
    const pages: Record<string, string> = {
      "signed-in-home": "/",
      "signed-in-league": `/web/leagues/${secret.league.id}`,
      "signed-in-episode": `/web/episodes/${episodeId}`,
    };
    for (const colorScheme of ["light", "dark"] as const)
      for (const width of [375, 1440]) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme,
        });
        await signIn(context);
        for (const [name, path] of Object.entries(pages)) {
          const page = await visit(context, path);
          const overflow = await page.evaluate<number>(
            "document.documentElement.scrollWidth - window.innerWidth",
          );
          expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
          const suffix = colorScheme === "dark" ? "-dark" : "";
          await page.screenshot({
            path: join(SCREENSHOTS, `${name}-${width}${suffix}.png`),
            fullPage: true,
          });
        }
        const signInPage = await context.newPage();
        await signInPage.goto(`${t.url}/web/sign-in`);
        await signInPage.screenshot({
          path: join(SCREENSHOTS, `sign-in-${width}${colorScheme === "dark" ? "-dark" : ""}.png`),
        });
        await context.close();
      }
  }, 120_000);
});
