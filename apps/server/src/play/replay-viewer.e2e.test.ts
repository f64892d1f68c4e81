// GridRush's replay viewer end to end: a runner process plays a real episode, the viewer is
// uploaded as the coworld's replay_viewer play module, and headless Chromium (Debian's chromium
// with playwright-core) opens it on the episode's replay: every turn is there, the controls move
// through them, and the end shows the scores the service recorded. A replay it cannot read is
// a status line, not a blank page.
import { createHash, randomBytes } from "node:crypto";

import { strToU8, zipSync } from "fflate";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, PlayModule, ReplaySessionResponse } from "@gauntlet/core";

import { startBrowserPlay, type BrowserPlay } from "../../testing/browser-play.ts";
import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import type { RunnerProcess } from "../../testing/runner-process.ts";
import type { TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  gridrushManifest,
  type TestLeague,
} from "../../testing/test-league.ts";

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

/** Plays one short GridRush episode of the league's coworld on the runner; answers it. */
async function playOne(tl: TestLeague) {
  const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
  const wanderer = await tl.addPlayer("Wanderer", { baseline: "wanderer" });
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
  return episode;
}

/** A static viewer as coworld's contract has it: index.html that reads `?replay=` and fetches it. */
const STATIC_VIEWER = zipSync({
  "index.html": strToU8(
    '<!doctype html><html><head><meta charset="utf-8"><title>viewer</title></head><body><p id="out">loading</p><script src="viewer.js"></script></body></html>',
  ),
  "viewer.js": strToU8(`
const replay = new URLSearchParams(location.search).get("replay");
const out = document.getElementById("out");
fetch(replay)
  .then((r) => { if (!r.ok) throw new Error("the replay answered " + r.status); return r.arrayBuffer(); })
  .then((bytes) => { document.body.dataset.bytes = String(bytes.byteLength); document.body.dataset.loaded = "true"; out.textContent = "loaded"; })
  .catch((e) => { document.body.dataset.failed = "true"; out.textContent = "failed: " + e.message; });
`),
});

describe("GridRush's replay viewer in the browser", () => {
  it("plays back a recorded episode turn by turn and ends on the recorded scores", async () => {
    const tl = await createTestLeague(t);
    const upload = await uploadGridrushPlayModule(t.url, tl, "replay_viewer");
    expect(upload.status).toBe(201);
    const viewer = (await upload.json()) as PlayModule;
    expect(viewer.kind).toBe("replay_viewer");
    const api = client(t.url, tl.commissioner.token);
    const episode = await playOne(tl);
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

  it("plays a replay in the coworld's static viewer, the bundle its manifest names (?replay=)", async () => {
    const owner = await t.newUser();
    const ownerApi = client(t.url, owner.token);
    const content_hash = createHash("sha256").update(STATIC_VIEWER).digest("hex");
    const body = { content_hash, size_bytes: STATIC_VIEWER.byteLength };
    const started = await ownerApi.post<{ bundle: string; upload_url: string | null }>(
      "/v2/coworlds/replay-viewer-bundles/upload",
      body,
    );
    expect(started.status, started.text).toBe(200);
    const put = await fetch(started.body.upload_url ?? "", {
      method: "PUT",
      body: STATIC_VIEWER,
    });
    expect(put.status).toBe(200);
    const done = await ownerApi.post("/v2/coworlds/replay-viewer-bundles/upload/complete", body);
    expect(done.status, done.text).toBe(200);

    const name = `gridrush-static-${randomBytes(4).toString("hex")}`;
    const manifest = gridrushManifest(name) as { game: Record<string, unknown> };
    const tl = await createTestLeague(t, {
      commissioner: owner,
      manifest: { game: { ...manifest.game, replay_viewer: { bundle: started.body.bundle } } },
    });
    const episode = await playOne(tl);
    const replayUrl = `${t.url}/v2/episode-requests/${episode.id}/artifacts/replay`;
    const api = client(t.url, tl.commissioner.token);
    const session = await api.post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: tl.coworldId,
      replay_uri: replayUrl,
    });
    expect(session.status, session.text).toBe(200);
    const viewerUrl = new URL(session.body.viewer_url);
    expect(viewerUrl.pathname).toMatch(/^\/v2\/play-modules\/[^/]+\/files\/index\.html$/);
    expect(viewerUrl.searchParams.get("replay")).toMatch(/\/v2\/replays\//);
    // Served sandboxed as every module is: an opaque origin, no token.
    const served = await fetch(viewerUrl);
    expect(served.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts /);
    expect(session.body.viewer_url).not.toContain(tl.commissioner.token);

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(session.body.viewer_url);
    await page.waitForSelector("body[data-loaded='true'], body[data-failed='true']", {
      timeout: 30_000,
    });
    expect(await page.locator("#out").textContent()).toBe("loaded");
    const replay = await api.get(`/v2/episode-requests/${episode.id}/artifacts/replay`);
    expect(replay.status).toBe(200);
    expect(await page.locator("body").getAttribute("data-bytes")).toBe(
      String(Buffer.byteLength(replay.text)),
    );
    expect(problems).toEqual([]);
  }, 300_000);
});
