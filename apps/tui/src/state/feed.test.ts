import { describe, expect, it } from "vitest";

import { division, event, league } from "../../testing/fixtures.ts";
import { isEpisodeOf, mergeEvents, mergeFeed } from "./feed.ts";

const premier = division(league());

describe("the feed", () => {
  it("keeps rounds, promotions and submissions, newest first, each once", () => {
    const started = event("round_started", premier);
    const episode = event("episode_completed", premier, { episode_request_id: "ereq_x" });
    const promoted = event("player_promoted", premier);
    const feed = mergeFeed(mergeFeed([], [started, episode]), [promoted, started]);
    expect(feed.map((e) => e.event_type)).toEqual(["player_promoted", "round_started"]);
  });

  it("stays within its limit however many events arrive", () => {
    let feed = mergeFeed([], []);
    for (let i = 0; i < 1000; i += 1)
      feed = mergeFeed(feed, [event("round_completed", premier)], 50);
    expect(feed).toHaveLength(50);
    expect(feed[0]?.seq).toBeGreaterThan(feed[49]?.seq ?? Infinity);
  });

  it("puts an older event in its place", () => {
    const older = event("round_started", premier);
    const newer = event("round_completed", premier);
    expect(mergeFeed([newer], [older]).map((e) => e.seq)).toEqual([newer.seq, older.seq]);
  });

  it("keeps the division's settled episodes apart", () => {
    const other = division(premier.league, { name: "Challenger", level: 2 });
    const mine = event("episode_completed", premier, { episode_request_id: "ereq_1" });
    const theirs = event("episode_completed", other, { episode_request_id: "ereq_2" });
    const list = mergeEvents(
      [],
      [mine, theirs, event("round_started", premier)],
      isEpisodeOf(premier.id),
      10,
    );
    expect(list).toEqual([mine]);
  });
});
