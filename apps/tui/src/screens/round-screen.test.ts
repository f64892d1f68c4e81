// The round detail with ink-testing-library.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { division, episode, league, round } from "../../testing/fixtures.ts";
import { KEYS, renderAt } from "../../testing/ink.ts";
import { Notices } from "../data/notices.ts";
import { ROUND_POLL_MS, RoundScreen } from "./round-screen.ts";

afterEach(cleanup);

const premier = division(league(), { name: "Premier" });

describe("the round screen", () => {
  it("shows the results by rank and the episodes, and opens one with Enter", async () => {
    const detail = round(premier, 12, {
      status: "completed",
      completed_at: "2026-01-01T12:05:00.000Z",
      results: [
        {
          id: "00000000-0000-4000-8000-000000000002",
          rank: 2,
          score: 4.5,
          result_metadata: {},
          policy_version: null,
          player: { id: "ply_00000000-0000-4000-8000-000000000002", name: "Bo" },
          created_at: "2026-01-01T12:05:00.000Z",
        },
        {
          id: "00000000-0000-4000-8000-000000000001",
          rank: 1,
          score: 7,
          result_metadata: {},
          policy_version: null,
          player: { id: "ply_00000000-0000-4000-8000-000000000001", name: "Ada" },
          created_at: "2026-01-01T12:05:00.000Z",
        },
      ],
    });
    const episodes = [episode(["Ada", "Bo"]), episode(["Bo", "Ada"])];
    const opened: string[] = [];
    const screen = renderAt(
      h(RoundScreen, {
        refreshKey: 0,
        load: async () => ({ round: detail, episodes }),
        notices: new Notices(),
        width: 100,
        height: 24,
        active: true,
        onOpenEpisode: (id) => opened.push(id),
      }),
      100,
      24,
    );
    const frame = await screen.waitFor("the round", (f) => f.includes("Round 12 · Premier"));
    expect(frame).toMatch(/completed · started \d\d:\d\d:\d\d · ended \d\d:\d\d:\d\d/);
    expect(frame.indexOf("  1  Ada")).toBeLessThan(frame.indexOf("  2  Bo"));
    expect(frame).toContain("Bo 10 vs Ada 9");
    await screen.press(KEYS.down, KEYS.enter);
    await screen.waitFor("opened", () => opened.length === 1);
    expect(opened).toEqual([episodes[1]?.id]);
  });

  it("says why a running round waits: its episodes queued for a runner and its place in the queue", async () => {
    const detail = round(premier, 3, {
      status: "running",
      waiting: {
        reason: "waiting for a runner",
        queued_episodes: 2,
        running_episodes: 1,
        queue_position: 4,
        estimated_start_at: null,
      },
    });
    const screen = renderAt(
      h(RoundScreen, {
        refreshKey: 0,
        load: async () => ({ round: detail, episodes: [] }),
        notices: new Notices(),
        width: 100,
        height: 24,
        active: true,
        onOpenEpisode: () => undefined,
      }),
      100,
      24,
    );
    const frame = await screen.waitFor("the reason", (f) => f.includes("Round 3 · Premier"));
    expect(frame).toContain("waiting for a runner: 2 queued, #4 in the queue");
  });

  it("says what went wrong when the round cannot be loaded", async () => {
    const notices = new Notices();
    const screen = renderAt(
      h(RoundScreen, {
        refreshKey: 0,
        load: async () => {
          throw new Error("gone");
        },
        notices,
        width: 80,
        height: 20,
        active: true,
        onOpenEpisode: () => undefined,
      }),
      80,
      20,
    );
    await screen.waitFor("the failure", (f) => f.includes("round: gone"));
    expect(notices.latest?.level).toBe("error");
  });

  it("moves on by itself: a running round shown is completed with its results, no key pressed", async () => {
    const running = round(premier, 5, { status: "running" });
    const completed = round(premier, 5, {
      status: "completed",
      completed_at: "2026-01-01T12:05:00.000Z",
      results: [
        {
          id: "00000000-0000-4000-8000-000000000001",
          rank: 1,
          score: 7,
          result_metadata: {},
          policy_version: null,
          player: { id: "ply_00000000-0000-4000-8000-000000000001", name: "Ada" },
          created_at: "2026-01-01T12:05:00.000Z",
        },
      ],
    });
    // The server's answers in turn: still running, then done.
    const answers = [running, completed];
    let loads = 0;
    const screen = renderAt(
      h(RoundScreen, {
        refreshKey: 0,
        load: async () => {
          const answer = answers[Math.min(loads, answers.length - 1)] ?? running;
          loads += 1;
          return { round: answer, episodes: [] };
        },
        notices: new Notices(),
        width: 100,
        height: 24,
        active: true,
        onOpenEpisode: () => undefined,
      }),
      100,
      24,
    );
    const before = await screen.waitFor("the running round", (f) => f.includes("Round 5"));
    expect(before).toContain("running · started");
    expect(before).toContain("No results yet");
    const after = await screen.waitFor("the completed round", (f) => f.includes("completed ·"));
    expect(after).toMatch(/ {2}1 {2}Ada\s+7/);
    expect(after).not.toContain("No results yet");
    // Settled: no more loads however long it stays open.
    const settledAt = loads;
    await new Promise((r) => setTimeout(r, ROUND_POLL_MS + 500));
    expect(loads).toBe(settledAt);
  }, 30_000);

  it("loads again at once when the watched division has news, keeping the round on screen meanwhile", async () => {
    let loads = 0;
    const gate: { release: (() => void) | null } = { release: null };
    const load = async () => {
      loads += 1;
      if (loads > 1) await new Promise<void>((resolve) => (gate.release = resolve));
      return {
        round: round(premier, 8, { status: loads > 1 ? "completed" : "running" }),
        episodes: [],
      };
    };
    const props = {
      load,
      notices: new Notices(),
      width: 100,
      height: 24,
      active: true,
      onOpenEpisode: () => undefined,
    };
    const screen = renderAt(h(RoundScreen, { ...props, refreshKey: 1 }), 100, 24);
    await screen.waitFor("the round", (f) => f.includes("Round 8"));
    screen.rerender(h(RoundScreen, { ...props, refreshKey: 2 }));
    await screen.waitFor("the second load", () => gate.release !== null);
    expect(screen.frame()).toContain("running · started");
    gate.release?.();
    await screen.waitFor("the news", (f) => f.includes("completed · started"));
    expect(loads).toBe(2);
  });
});
