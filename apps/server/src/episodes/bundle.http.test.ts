// Episode bundles over real HTTP: the zip holds the episode's artifacts (derived spec and game
// config, stored results and replay), `include` narrows it, and an unknown part is a 422.
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, scriptedRunner } from "../../testing/test-league.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function zipOf(
  url: string,
  token: string,
): Promise<{ status: number; type: string | null; files: Record<string, string> }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200)
    return { status: res.status, type: res.headers.get("content-type"), files: {} };
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    files: Object.fromEntries(
      Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString("utf8")]),
    ),
  };
}

describe("episode bundles", () => {
  it("zips the episode's artifacts, narrows by include, and names an unknown part", async () => {
    const tl = await createTestLeague(t);
    const ada = await tl.addPlayer("Ada");
    const bob = await tl.addPlayer("Bob");
    const xr = await client(t.url, tl.commissioner.token).post<ExperienceRequestDetail>(
      "/v2/experience-requests",
      {
        coworld_id: tl.coworldId,
        roster: [
          { player: { policy_ref: ada.policyVersionId } },
          { player: { policy_ref: bob.policyVersionId } },
        ],
        num_episodes: 1,
      },
    );
    const episodeId = xr.body.episodes[0]?.id ?? "";
    const runner = await scriptedRunner(t);
    const [job] = await runner.lease(1);
    if (!job) throw new Error("no job");
    expect(await runner.upload(job, "replay", "REPLAY-BYTES")).toBe(200);
    expect(await runner.upload(job, "policy-artifact-1", "BOB-NOTES")).toBe(200);
    expect(await runner.complete(job, [2, 1])).toBe(200);

    const all = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle`,
      tl.commissioner.token,
    );
    expect(all.status).toBe(200);
    expect(all.type).toContain("application/zip");
    expect(Object.keys(all.files).sort()).toEqual([
      `${episodeId}/game-config.json`,
      `${episodeId}/policy-artifacts/1`,
      `${episodeId}/replay`,
      `${episodeId}/results.json`,
      `${episodeId}/spec.json`,
    ]);
    expect(all.files[`${episodeId}/replay`]).toBe("REPLAY-BYTES");
    expect(all.files[`${episodeId}/policy-artifacts/1`]).toBe("BOB-NOTES");
    // A seat's artifact is for its policy's owner, the requester or an admin: not in a stranger's bundle.
    const stranger = await t.newUser();
    expect(
      Object.keys(
        (await zipOf(`${t.url}/v2/episode-requests/${episodeId}/bundle`, stranger.token)).files,
      ),
    ).not.toContain(`${episodeId}/policy-artifacts/1`);
    expect(JSON.parse(all.files[`${episodeId}/results.json`] ?? "{}")).toMatchObject({
      scores: [2, 1],
    });
    expect(JSON.parse(all.files[`${episodeId}/spec.json`] ?? "{}")).toMatchObject({
      coworld_id: tl.coworldId,
    });

    const some = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results,replay`,
      tl.commissioner.token,
    );
    expect(Object.keys(some.files).sort()).toEqual([
      `${episodeId}/replay`,
      `${episodeId}/results.json`,
    ]);
    // The key repeated, as the SDK sends a list, narrows the same way.
    const repeated = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results&include=replay`,
      tl.commissioner.token,
    );
    expect(Object.keys(repeated.files).sort()).toEqual([
      `${episodeId}/replay`,
      `${episodeId}/results.json`,
    ]);

    const bad = await client(t.url, tl.commissioner.token).get(
      `/v2/episode-requests/${episodeId}/bundle?include=results,movies`,
    );
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("movies");
  }, 60_000);
});
