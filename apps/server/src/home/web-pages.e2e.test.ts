// The web view's pages in headless Chromium (Debian's chromium with playwright-core), on a real
// server with the demo league (GridRush's baselines) played by a real runner: every page draws
// from the API, every link on the home page answers a page, an episode's replay plays in its
// page, a division's standings move without a reload when a round's episodes complete, an
// anonymous visitor never sees a private league, and the hosted service's links land on their
// page. A league run by its coworld's own commissioner (the fixture, sandboxed on the runner)
// shows that commissioner on its league, division and round pages, how it describes the
// division, and the round's episodes with the tags it gave them: the author's markup as text. Each page is screenshot at 375 and 1440 px into the test reports (CI keeps them).
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { RoundDetail, RoundPage, TriggerRoundResponse } from "@gauntlet/core";

import { startBrowserPlay, type BrowserPlay } from "../../testing/browser-play.ts";
import {
  commissionerBundle,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
} from "../../testing/commissioner-coworld.ts";
import { seedDemoLeague } from "../../testing/demo-league.ts";
import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import type { TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually, type TestLeague } from "../../testing/test-league.ts";

const SCREENSHOTS = join(
  process.env.GAUNTLET_TEST_REPORT_DIR ?? join(import.meta.dirname, "../../test-artifacts"),
  "web-view",
);
const SECRET_PLAYER = "Secret Sam";

let play: BrowserPlay;
let t: TestServer;
let browser: Browser;
let leagueId: string;
let hillId: string | null;
let secretLeague: { id: string; name: string };

async function playRound(): Promise<string> {
  const triggered = await client(t.url, t.adminToken).post<TriggerRoundResponse>(
    `/v2/leagues/${leagueId}/trigger-round`,
    {},
  );
  expect(triggered.status, triggered.text).toBe(200);
  const ids = triggered.body.rounds.map((r) => r.id);
  await eventually(
    `the demo rounds to settle (runner: ${play.runner.output().slice(-1500)})`,
    async () => {
      const page = (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${leagueId}`)).body;
      return ids.every((id) => page.entries.find((r) => r.id === id)?.status === "completed");
    },
    180_000,
  );
  return ids[0] ?? "";
}

beforeAll(async () => {
  play = await startBrowserPlay("web-pages-e2e");
  ({ t, browser } = play);
  const demo = await seedDemoLeague(t);
  leagueId = demo.league.id;
  hillId = demo.hill?.id ?? null;
  await playRound();
  const secret = await createTestLeague(t, { public: false });
  await secret.submit(await secret.addPlayer(SECRET_PLAYER));
  secretLeague = { id: secret.league.id, name: secret.league.name };
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await play?.close();
}, 30_000);

interface Visit {
  page: Page;
  problems: string[];
}

/** Opens a page and waits until its script has drawn it; collects errors and CSP violations. */
async function visit(url: string, width = 1440): Promise<Visit> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico"))
      problems.push(`${r.status()} ${r.url()}`);
  });
  await page.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) => {
      (window.cspViolations ||= []).push(e.violatedDirective + " " + e.blockedURI);
    });`,
  });
  await page.goto(url);
  await page.locator("main[data-drawn]").waitFor({ timeout: PATIENCE_MS });
  // The parts that follow the standings (chart, heat map, lists) have arrived too.
  await page.locator("main", { hasNotText: "Loading…" }).waitFor({ timeout: PATIENCE_MS });
  return { page, problems };
}

/** The address of the first link on the page whose address starts with `prefix`. */
async function firstLink(page: Page, prefix: string): Promise<string> {
  const a = page.locator(`main a[href^="${prefix}"]`).first();
  await a.waitFor({ timeout: PATIENCE_MS });
  return new URL((await a.getAttribute("href")) ?? "", t.url).href;
}

describe("the web view's pages", () => {
  it("draws every page from the demo league's data, with no error, nothing private, and a screenshot at 375 and 1440 px", async () => {
    const home = await visit(`${t.url}/`);
    const pages: Record<string, string> = { home: `${t.url}/` };
    pages.league = await firstLink(home.page, "/web/leagues/");
    pages.division = await firstLink(home.page, "/web/divisions/");
    pages.round = await firstLink(home.page, "/web/rounds/");
    pages.episode = await firstLink(home.page, "/web/episodes/");
    pages.player = await firstLink(home.page, "/web/players/");
    const player = await visit(pages.player);
    pages["policy-version"] = await firstLink(player.page, "/web/policy-versions/");
    await home.page.close();
    await player.page.close();

    const expected: Record<string, RegExp> = {
      home: /Premier[\s\S]*Standings/,
      league: /Premier/,
      division: /Standings[\s\S]*could rank[\s\S]*Rating history[\s\S]*Pairwise record/,
      round: /Round #1[\s\S]*Results[\s\S]*Episodes/,
      episode: /Players[\s\S]*Replay/,
      player: /Policy versions[\s\S]*Leagues[\s\S]*Rating history[\s\S]*Recent episodes/,
      "policy-version": /Leagues[\s\S]*Recent episodes/,
    };
    for (const [name, url] of Object.entries(pages)) {
      for (const width of [375, 1440]) {
        const { page, problems } = await visit(url, width);
        const text = await page.locator("main").innerText();
        expect(text, name).toMatch(expected[name] ?? /./);
        expect(text, name).not.toContain("Not found");
        expect(text, name).not.toContain(SECRET_PLAYER);
        expect(text, name).not.toContain(secretLeague.name);
        // Readable at this width: nothing but a table's own scroller is wider than the window.
        const overflow = await page.evaluate<number>(
          "document.documentElement.scrollWidth - window.innerWidth",
        );
        expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
        expect(await page.evaluate("window.cspViolations ?? []"), name).toEqual([]);
        expect(problems, name).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
        await page.close();
      }
    }
  }, 240_000);

  it("answers every link on the home page with an HTML page (no JSON, no 404)", async () => {
    const { page } = await visit(`${t.url}/`);
    const hrefs = new Set<string>();
    for (const a of await page.locator("a[href]").all())
      hrefs.add(new URL((await a.getAttribute("href")) ?? "", t.url).href);
    await page.close();
    expect(hrefs.size).toBeGreaterThan(10);
    for (const href of hrefs) {
      // As a browser follows it: redirects too (a replay link leads to the viewer's page).
      const res = await fetch(href, { headers: { accept: "text/html,*/*;q=0.8" } });
      expect(res.status, href).toBe(200);
      expect(res.headers.get("content-type"), href).toMatch(/^text\/html/);
    }
  }, 120_000);

  it("plays an episode's replay in the episode page: its turns advance", async () => {
    const home = await visit(`${t.url}/`);
    const episodeUrl = await firstLink(home.page, "/web/episodes/");
    await home.page.close();
    const { page, problems } = await visit(episodeUrl);
    const viewer = page.frameLocator("iframe.replay");
    await viewer.locator("body[data-loaded='true']").waitFor({ timeout: PATIENCE_MS });
    const turn = () => viewer.locator("body").getAttribute("data-turn");
    const first = Number(await turn());
    await viewer.getByTitle("play or pause (space)").click();
    await eventually(
      "the replay's turns to advance",
      async () => Number(await turn()) > first,
      PATIENCE_MS,
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("moves a division's standings without a reload when its episodes complete, and says it is live", async () => {
    const home = await visit(`${t.url}/`);
    const divisionUrl = await firstLink(home.page, "/web/divisions/");
    await home.page.close();
    const { page } = await visit(divisionUrl);
    await page.locator("#status", { hasText: "live" }).waitFor({ timeout: PATIENCE_MS });
    await page.evaluate("window.sameDocument = true");
    const standings = () => page.locator("main table").first().innerText();
    const before = await standings();
    await playRound();
    await eventually(
      "the standings to move on the open page",
      async () => (await standings()) !== before,
      PATIENCE_MS,
    );
    expect(await page.evaluate("window.sameDocument")).toBe(true);
    await page.close();
  }, 300_000);

  it("shows an anonymous visitor nothing of a private league, even at its own address", async () => {
    const { page } = await visit(`${t.url}/web/leagues/${secretLeague.id}`);
    expect(await page.locator("main").innerText()).toContain("Not found");
    expect(await page.content()).not.toContain(secretLeague.name);
    await page.close();
  });

  it("lands the hosted service's links (/observatory/v2?tab=…) on the matching page", async () => {
    const { page } = await visit(`${t.dataUrl}/v2?tab=leagues&detail=league:${leagueId}`);
    expect(new URL(page.url()).pathname).toBe(`/observatory/web/leagues/${leagueId}`);
    expect(await page.locator("main h2").first().innerText()).toMatch(/\S/);
    const pv = await firstLink(page, "/observatory/web/");
    expect(pv).toContain("/observatory/web/divisions/");
    await page.close();
    const memberships = (
      await client(t.url).get<{ policy_version: { id: string } }[]>(
        `/v2/league-policy-memberships?league_id=${leagueId}`,
      )
    ).body;
    const versionId = memberships[0]?.policy_version.id ?? "";
    const upload = await visit(`${t.dataUrl}/v2?tab=uploads&detail=policy-version:${versionId}`);
    expect(new URL(upload.page.url()).pathname).toBe(
      `/observatory/web/policy-versions/${versionId}`,
    );
    await upload.page.close();
  });
});

describe("a league run by its coworld's own commissioner", () => {
  const HOSTILE = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;
  let tl: TestLeague;
  let round: RoundDetail;

  beforeAll(async () => {
    // Only this league plays: the others are paused, so the scheduler ticks below (the server's
    // scheduler is off) start nothing else.
    const db = t.server.store.db;
    await db.updateTable("leagues").set({ rounds_paused_at: new Date().toISOString() }).execute();
    tl = await createTestLeague(t, {
      bundle: await commissionerBundle(),
      manifest: {
        commissioner: fixtureCommissioner(1, {}, { description: HOSTILE, note: HOSTILE }),
      },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
    });
    await db
      .updateTable("leagues")
      .set({ rounds_paused_at: new Date().toISOString() })
      .where("id", "=", tl.league.id)
      .execute();
    for (const [name, baseline] of [
      ["Ada", "greedy"],
      ["Zed", "random"],
    ] as const)
      await tl.submit(await tl.addPlayer(name, { baseline }));
    await db
      .updateTable("leagues")
      .set({ rounds_paused_at: null })
      .where("id", "=", tl.league.id)
      .execute();
    round = await eventually(
      `the commissioner's round to complete (runner: ${play.runner.output().slice(-1500)})`,
      async () => {
        await t.server.leaguePlay.scheduler.tick();
        const page = (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}`))
          .body;
        const done = page.entries.find((r) => r.status === "completed" || r.status === "failed");
        return done ? (await client(t.url).get<RoundDetail>(`/v2/rounds/${done.id}`)).body : null;
      },
      180_000,
    );
    expect(round.status, round.error ?? "").toBe("completed");
  }, 240_000);

  /** The page's main text; nothing of the author's markup ran or became an element. */
  async function drawnAsText(url: string, screenshot?: string): Promise<string> {
    const { page, problems } = await visit(url);
    if (screenshot)
      await page.screenshot({ path: join(SCREENSHOTS, `${screenshot}-1440.png`), fullPage: true });
    const text = await page.locator("main").innerText();
    expect(await page.evaluate("window.pwned")).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await page.evaluate("window.cspViolations ?? []")).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
    return text;
  }

  const byCoworld = new RegExp(
    `commissioner\\s+${FIXTURE_RUNNABLE_ID} — the coworld's own commissioner \\(gridrush-[0-9a-f]+ v\\S+\\)`,
  );

  it("names the coworld's commissioner on the league and division pages, with its description as text", async () => {
    expect(
      await drawnAsText(`${t.url}/web/leagues/${tl.league.id}`, "commissioned-league"),
    ).toMatch(byCoworld);
    const division = await drawnAsText(
      `${t.url}/web/divisions/${round.division.id}`,
      "commissioned-division",
    );
    expect(division).toMatch(byCoworld);
    // How it works, as the commissioner's manifest entry describes the round's structure.
    expect(division).toMatch(/How it works[\s\S]*rounds\s+The coworld's commissioner is asked/);
    expect(division).toMatch(
      new RegExp(`structure\\s+${HOSTILE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );

    // The demo's leagues: the built-in ladder, and GridRush's own king of the hill.
    expect(await drawnAsText(`${t.url}/web/leagues/${leagueId}`)).toMatch(
      /commissioner\s+ladder \(built-in\)/,
    );
    if (hillId) {
      const hill = await drawnAsText(`${t.url}/web/leagues/${hillId}`);
      expect(hill).toMatch(/commissioner\s+king-of-the-hill — the coworld's own commissioner/);
    }
  }, 120_000);

  it("shows who ran a round, and its episodes as the commissioner asked for them, tags and all", async () => {
    const text = await drawnAsText(`${t.url}/web/rounds/${round.id}`, "commissioned-round");
    expect(text).toMatch(byCoworld);
    // The fixture ranks Z to A whatever the scores.
    expect(text).toMatch(/Results[\s\S]*1\s+Zed[\s\S]*2\s+Ada/);
    expect(text).toMatch(/Episodes \(1\)\s+tags\s+players\s+scores\s+status/);
    const row = text.split("\n").find((line) => line.startsWith("stage=fixture"));
    expect(row).toBeDefined();
    expect(row).toContain(`stage=fixture round=1 note=${HOSTILE}`);
    expect(row).toMatch(/Ada vs Zed|Zed vs Ada/);
    expect(row).toMatch(/\d+(\.\d+)? – \d+(\.\d+)?\s+completed/);

    // A round of the built-in scheduler says so.
    const demoRounds = (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${leagueId}`)).body
      .entries;
    expect(await drawnAsText(`${t.url}/web/rounds/${demoRounds[0]?.id ?? ""}`)).toMatch(
      /commissioner\s+ladder \(built-in\)/,
    );
  }, 120_000);
});
