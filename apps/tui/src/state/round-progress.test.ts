import { describe, expect, it } from "vitest";

import { division, episode, league, round } from "../../testing/fixtures.ts";
import {
  isSameOrLater,
  progressFromEpisodes,
  withEpisodeSettled,
  withRoundStatus,
} from "./round-progress.ts";

const premier = division(league());

describe("round progress", () => {
  it("counts the settled episodes of a full listing", () => {
    const r = round(premier, 4, { round_display: {} });
    const episodes = [
      episode(["A", "B"]),
      episode(["A", "C"], { status: "failed" }),
      episode(["B", "C"], { status: "running" }),
    ];
    const progress = progressFromEpisodes(r, episodes, true);
    expect(progress.total).toBe(3);
    expect(progress.settled.size).toBe(2);
    expect(progress.failed).toBe(1);
  });

  it("takes the total from the round's display block when the listing was cut short", () => {
    const r = round(premier, 4, { round_display: { episodes: 500 } });
    expect(progressFromEpisodes(r, [episode(["A", "B"])], false).total).toBe(500);
    expect(
      progressFromEpisodes(round(premier, 4, { round_display: { episodes: "many" } }), [], false)
        .total,
    ).toBeNull();
  });

  it("counts an episode once, and never more than the round has", () => {
    const r = round(premier, 1, { round_display: { episodes: 2 } });
    let progress = progressFromEpisodes(r, [], false);
    progress = withEpisodeSettled(progress, "e1", false);
    progress = withEpisodeSettled(progress, "e1", false);
    expect(progress.settled.size).toBe(1);
    progress = withEpisodeSettled(progress, "e2", true);
    progress = withEpisodeSettled(progress, "e3", false);
    expect(progress.settled.size).toBe(2);
    expect(progress.failed).toBe(1);
  });

  it("adds the episodes whose events came while the listing loaded", () => {
    const r = round(premier, 1, { round_display: { episodes: 3 } });
    const listed = episode(["A", "B"]);
    const progress = progressFromEpisodes(
      r,
      [listed],
      false,
      new Map([
        [listed.id, false],
        ["late", true],
      ]),
    );
    expect(progress.settled.size).toBe(2);
    expect(progress.failed).toBe(1);
  });

  it("moves on to later rounds only", () => {
    const third = progressFromEpisodes(round(premier, 3), [], true);
    expect(isSameOrLater(third, round(premier, 2))).toBe(false);
    expect(isSameOrLater(third, round(premier, 4))).toBe(true);
    expect(isSameOrLater(third, third.round)).toBe(true);
    expect(isSameOrLater(null, round(premier, 1))).toBe(true);
    expect(withRoundStatus(third, "completed").round.status).toBe("completed");
  });
});
