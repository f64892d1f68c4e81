// The episode detail with ink-testing-library: participants, scores, and the addresses of its
// replay and logs.
import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { episode } from "../../testing/fixtures.ts";
import { renderAt } from "../../testing/ink.ts";
import { Notices } from "../data/notices.ts";
import { episodeAddresses, EpisodeScreen } from "./episode-screen.ts";

afterEach(cleanup);

const BASE = "http://gauntlet.test/observatory";

describe("the episode screen", () => {
  it("shows who played, their scores, and where the replay and logs are", async () => {
    const played = episode(["Ada", "Bo"], {
      replay_url: `${BASE}/v2/episode-requests/x/artifacts/replay`,
    });
    const seat = played.participants[1];
    const artifacts = [
      {
        position: 1,
        policy_version_id: seat?.policy_version_id ?? null,
        policy_name: "bo-policy",
        has_log: true,
        has_artifact: false,
      },
    ];
    const screen = renderAt(
      h(EpisodeScreen, {
        refreshKey: 0,
        load: async () => ({ episode: played, artifacts }),
        baseUrl: BASE,
        notices: new Notices(),
        width: 140,
        height: 30,
      }),
      140,
      30,
    );
    const frame = await screen.waitFor("the episode", (f) => f.includes("Participants"));
    expect(frame).toMatch(/seat 0 {2}Ada\s+ada-policy v1 {2}score 10/);
    expect(frame).toMatch(/seat 1 {2}Bo\s+bo-policy v1 {2}score 9/);
    expect(frame).toMatch(
      /replay\s+http:\/\/gauntlet\.test\/observatory\/v2\/episode-requests\/x\/artifacts\/replay/,
    );
    // A long address wraps onto the next line rather than lose its end.
    const text = frame.replace(/[\s┃]/g, "");
    expect(text).toContain(`logs${BASE}/v2/episode-requests/${played.id}/artifacts/logs`);
    expect(text).toContain(
      `seat1log${BASE}/v2/episode-requests/${played.id}/${seat?.policy_version_id}/policy-logs/1`,
    );
  });

  it("shows a failed episode's error and its error and log addresses, no replay", async () => {
    const failed = episode(["Ada", "Bo"], {
      status: "failed",
      error_type: "timeout",
      error: "seat 1 took too long",
      scores: [],
    });
    const addresses = episodeAddresses(BASE, { episode: failed, artifacts: [] }).map(
      (a) => a.label,
    );
    expect(addresses).toEqual(["logs", "error"]);
    const screen = renderAt(
      h(EpisodeScreen, {
        refreshKey: 0,
        load: async () => ({ episode: failed, artifacts: [] }),
        baseUrl: BASE,
        notices: new Notices(),
        width: 120,
        height: 24,
      }),
      120,
      24,
    );
    const frame = await screen.waitFor("the episode", (f) => f.includes("Participants"));
    expect(frame).toContain("timeout: seat 1 took too long");
    expect(frame).not.toContain("replay");
  });

  it("has no addresses before the episode ends", () => {
    expect(
      episodeAddresses(BASE, {
        episode: episode(["A", "B"], { status: "running", scores: [] }),
        artifacts: [],
      }),
    ).toEqual([]);
  });

  it("a running episode shown turns into its result by itself", async () => {
    let loads = 0;
    const screen = renderAt(
      h(EpisodeScreen, {
        refreshKey: 0,
        load: async () => {
          loads += 1;
          return {
            episode: episode(["Ada", "Bo"], loads === 1 ? { status: "running", scores: [] } : {}),
            artifacts: [],
          };
        },
        baseUrl: BASE,
        notices: new Notices(),
        width: 120,
        height: 30,
      }),
      120,
      30,
    );
    await screen.waitFor("the running episode", (f) => f.includes("running"));
    const frame = await screen.waitFor("the result", (f) => f.includes("completed"));
    expect(frame).toMatch(/seat 0 {2}Ada\s+ada-policy v1 {2}score 10/);
  }, 30_000);
});
