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
      "artifacts/policy_artifact_1.zip",
      "game-config.json",
      "manifest.json",
      "replay",
      "results.json",
      "spec.json",
    ]);
    expect(all.files.replay).toBe("REPLAY-BYTES");
    expect(all.files["artifacts/policy_artifact_1.zip"]).toBe("BOB-NOTES");
    // The manifest names what is in the zip, by the hosted service's part names.
    expect(JSON.parse(all.files["manifest.json"] ?? "{}")).toEqual({
      ereq_id: episodeId,
      status: "success",
      include: ["spec", "game-config", "results", "replay", "player_artifact"],
      files: {
        spec: "spec.json",
        "game-config": "game-config.json",
        results: "results.json",
        replay: "replay",
        player_artifact: { "1": "artifacts/policy_artifact_1.zip" },
      },
    });
    // An evaluation's episode is its requester's, its seats' owners' and admins': a stranger
    // does not learn it exists (seat files left out of a visible episode: the test below).
    const stranger = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results,player_artifact`,
      (await t.newUser()).token,
    );
    expect(stranger.status).toBe(404);
    expect(JSON.parse(all.files["results.json"] ?? "{}")).toMatchObject({
      scores: [2, 1],
    });
    expect(JSON.parse(all.files["spec.json"] ?? "{}")).toMatchObject({
      coworld_id: tl.coworldId,
    });

    const some = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results,replay`,
      tl.commissioner.token,
    );
    expect(Object.keys(some.files).sort()).toEqual(["manifest.json", "replay", "results.json"]);
    // The key repeated, as the SDK sends a list, narrows the same way; our names and the hosted
    // service's name the same part, which is in the zip once.
    const repeated = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results&include=replay&include=policy-artifacts&include=player_artifact`,
      tl.commissioner.token,
    );
    expect(Object.keys(repeated.files).sort()).toEqual([
      "artifacts/policy_artifact_1.zip",
      "manifest.json",
      "replay",
      "results.json",
    ]);
    // The upstream names of parts this episode does not have are taken and left out.
    const upstream = await zipOf(
      `${t.url}/v2/episode-requests/${episodeId}/bundle?include=results,replay,error_info,game_logs,player_logs,player_artifact`,
      tl.commissioner.token,
    );
    expect(upstream.status).toBe(200);
    expect(JSON.parse(upstream.files["manifest.json"] ?? "{}")).toMatchObject({
      include: ["results", "replay", "player_artifact"],
    });

    const bad = await client(t.url, tl.commissioner.token).get(
      `/v2/episode-requests/${episodeId}/bundle?include=results,movies`,
    );
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("movies");

    // The hosted service's job-artifact path serves the same bytes, by the job's id.
    const owner = client(t.url, tl.commissioner.token);
    const replay = await owner.get(`/jobs/${job.job_id}/artifacts/replay`);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe("REPLAY-BYTES");
    const results = await owner.get(`/jobs/${job.job_id}/artifacts/results`);
    expect(JSON.parse(results.text)).toMatchObject({ scores: [2, 1] });
    expect((await owner.get(`/jobs/${job.job_id}/artifacts/error_info`)).status).toBe(404);
    const unknown = await owner.get<{ detail: { message: string } }>(
      `/jobs/00000000-0000-4000-8000-000000000000/artifacts/replay`,
    );
    expect(unknown.status).toBe(404);
    expect((await owner.get(`/jobs/not-a-uuid/artifacts/replay`)).status).toBe(422);
    expect((await owner.get(`/jobs/${job.job_id}/artifacts/movies`)).status).toBe(422);
  }, 60_000);
});
