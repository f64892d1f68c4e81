// GridRush's replay viewer end to end: a runner process plays a real episode, the viewer is
// uploaded as the coworld's replay_viewer play module, and headless Chromium (Debian's chromium
// with playwright-core) opens it on the episode's replay: every turn is there, the controls move
// through them, and the end shows the scores the service recorded. A replay it cannot read is
// a status line, not a blank page.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, PlayModule, ReplaySessionResponse } from "@gauntlet/core";

import { startBrowserPlay, type BrowserPlay } from "../../testing/browser-play.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import type { RunnerProcess } from "../../testing/runner-process.ts";
import type { TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";

const TURNS = 6;

let t: TestServer;
let browser: Browser;
let runner: RunnerProcess;
let play: BrowserPlay;

beforeAll(async () => {
  play = await startBrowserPlay("replay-e2e");
  ({ t, runner, browser } = play);
}, 120_000);

afterAll(async () => {
  await play?.close();
}, 30_000);

describe("GridRush's replay viewer in the browser", () => {
  it("plays back a recorded episode turn by turn and ends on the recorded scores", async () => {
    const tl = await createTestLeague(t);
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    const wanderer = await tl.addPlayer("Wanderer", { baseline: "wanderer" });
    const upload = await uploadGridrushPlayModule(t.url, tl, "replay_viewer");
    expect(upload.status).toBe(201);
    const viewer = (await upload.json()) as PlayModule;
    expect(viewer.kind).toBe("replay_viewer");

    const api = client(t.url, tl.commissioner.token);
    const created = await api.post<ExperienceRequestDetail>("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      variant_id: "duel-small",
      roster: [
        { player: { policy_ref: greedy.policyVersionId } },
        { player: { policy_ref: wanderer.policyVersionId } },
      ],
      num_episodes: 1,
      game_config_overrides: { turns: TURNS, seed: 7, turn_timeout_ms: 2_000 },
    });
    expect(created.status, created.text).toBe(201);
    const done = await eventually(
      `the episode to end (runner: ${runner.output().slice(-2000)})`,
      async () => {
        const row = (
          await api.get<ExperienceRequestDetail>(`/v2/experience-requests/${created.body.id}`)
        ).body;
        return ["completed", "failed", "cancelled"].includes(row.status) ? row : null;
      },
      120_000,
    );
    expect(done.status, runner.output().slice(-2000)).toBe("completed");
    const episode = done.episodes[0];
    if (!episode) throw new Error("no episode");
    const replayUrl = `${t.url}/v2/episode-requests/${episode.id}/artifacts/replay`;

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400 && !r.url().endsWith("/favicon.ico"))
        problems.push(`${r.status()} ${r.url()}`);
    });
    page.on("pageerror", (e) => problems.push(e.message));
    // The viewer gets a capability for this one replay, never the commissioner's token.
    const session = await api.post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      replay_uri: replayUrl,
    });
    expect(session.status, session.text).toBe(200);
    expect(session.body.viewer_url.startsWith(`${viewer.entry_url}#replay=`)).toBe(true);
    expect(session.body.viewer_url).not.toContain(tl.commissioner.token);
    await page.goto(session.body.viewer_url);
    await page.waitForSelector("body[data-loaded='true']", { timeout: 30_000 });
    expect(await page.locator("body").getAttribute("data-turns")).toBe(String(TURNS));
    expect(await page.locator("#players").textContent()).toMatch(/Greedy.*Wanderer/);
    expect(await page.locator("#status").textContent()).toContain(`${TURNS} turns (seed 7)`);

    await page.getByTitle("next turn (→)").click();
    expect(await page.locator("body").getAttribute("data-turn")).toBe("1");
    expect(await page.locator("#status").textContent()).toMatch(
      new RegExp(`^Turn 1 of ${TURNS}: Greedy [NSEW]|stay`),
    );
    await page.getByTitle("last turn (End)").click();
    expect(await page.locator("body").getAttribute("data-turn")).toBe(String(TURNS));
    expect(await page.locator("#status").textContent()).toMatch(
      /Game over: (a tie|Greedy won|Wanderer won)\./,
    );
    const recorded = episode.scores.map((s) => s.score);
    expect(await page.locator("#scores").textContent()).toBe(
      `Greedy: ${recorded[0]} · Wanderer: ${recorded[1]}`,
    );
    await page.keyboard.press("ArrowLeft");
    expect(await page.locator("body").getAttribute("data-turn")).toBe(String(TURNS - 1));
    // Play runs from the start to the end by itself.
    await page.selectOption("#speed", "100");
    await page.getByTitle("play or pause (space)").click();
    await page.waitForSelector(`body[data-turn='${TURNS}'][data-playing='false']`, {
      timeout: 10_000,
    });
    expect(problems).toEqual([]);

    // A replay the viewer cannot read says so.
    const missing = await browser.newPage();
    await missing.goto(
      `${viewer.entry_url}#replay=${encodeURIComponent(`${t.url}/v2/replays/ereq_none.zzzzzz.forged`)}`,
    );
    await missing.waitForSelector("body[data-failed='true']", { timeout: 30_000 });
    expect(await missing.locator("#status").textContent()).toMatch(
      /^Could not show the replay: the replay answered 4\d\d/,
    );
  }, 300_000);
});
