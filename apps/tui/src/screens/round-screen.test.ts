// The round detail with ink-testing-library.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { Notices } from "../data/notices.ts";
import { division, episode, league, round } from "../testing/fixtures.ts";
import { KEYS, renderAt } from "../testing/ink.ts";
import { RoundScreen } from "./round-screen.ts";

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
      },
    });
    const screen = renderAt(
      h(RoundScreen, {
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
});
