// The player detail with ink-testing-library.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import type { EpisodeRequest } from "@gauntlet/core";

import { division, episode, league, recentRound, row } from "../../testing/fixtures.ts";
import { KEYS, renderAt } from "../../testing/ink.ts";
import { Notices } from "../data/notices.ts";
import { PlayerScreen } from "./player-screen.ts";

afterEach(cleanup);

const premier = division(league(), { name: "Premier" });
const ada = row(1, "Ada", {
  score: 1523.4,
  rounds_played: 7,
  episodes_played: 14,
  recent_rounds: [recentRound(7, 1), recentRound(6, 2)],
});

function mount(episodes: EpisodeRequest[]) {
  const opened: string[] = [];
  const screen = renderAt(
    h(PlayerScreen, {
      refreshKey: 0,
      row: ada,
      division: premier,
      loadEpisodes: async () => episodes,
      notices: new Notices(),
      width: 100,
      height: 24,
      now: Date.parse("2026-01-01T12:01:00.000Z"),
      active: true,
      onOpenEpisode: (id) => opened.push(id),
    }),
    100,
    24,
  );
  return { screen, opened };
}

describe("the player screen", () => {
  it("shows the player's line, recent rounds and episodes with scores", async () => {
    const { screen } = mount([
      episode(["Ada", "Bo"]),
      episode(["Cy", "Ada"], { status: "failed", scores: [] }),
    ]);
    const frame = await screen.waitFor("the episodes", (f) => f.includes("Ada 10 vs Bo 9"));
    expect(frame).toContain("Ada  Premier · rank 1");
    expect(frame).toContain("Rating 1523.4 · 7 rounds · 14 episodes counted");
    expect(frame).toMatch(/Round 7\s+rank 1 {2}score 9 {2}1m ago/);
    expect(frame).toMatch(/failed\s+Cy vs Ada/);
  });

  it("opens the selected episode with Enter", async () => {
    const second = episode(["Cy", "Ada"]);
    const { screen, opened } = mount([episode(["Ada", "Bo"]), second]);
    await screen.waitFor("the episodes", (f) => f.includes("Cy 10 vs Ada 9"));
    await screen.press("j", KEYS.enter);
    await screen.waitFor("opened", () => opened.length === 1);
    expect(opened).toEqual([second.id]);
  });

  it("shows the player's new episodes when the watched division has news", async () => {
    const first = episode(["Ada", "Bo"]);
    const second = episode(["Cy", "Ada"]);
    let list = [first];
    const props = {
      row: ada,
      division: premier,
      loadEpisodes: async () => list,
      notices: new Notices(),
      width: 100,
      height: 24,
      now: Date.parse("2026-01-01T12:01:00.000Z"),
      active: true,
      onOpenEpisode: () => undefined,
    };
    const screen = renderAt(h(PlayerScreen, { ...props, refreshKey: 1 }), 100, 24);
    await screen.waitFor("the first episode", (f) => f.includes("Ada 10 vs Bo 9"));
    list = [second, first];
    screen.rerender(h(PlayerScreen, { ...props, refreshKey: 2 }));
    const frame = await screen.waitFor("the new episode", (f) => f.includes("Cy 10 vs Ada 9"));
    expect(frame).toContain("Ada 10 vs Bo 9");
  });
});
