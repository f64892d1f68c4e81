// A commissioner's reserved tag `coworld_config_overlay_secret`: the episode it schedules keeps
// the secret's name only, and the runner that takes it gets the overlay for the game's config.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CoworldManifest, newId } from "@gauntlet/core";

import { client, http } from "../../../testing/http.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague } from "../../../testing/test-league.ts";
import { parseJson } from "../../shared/clock.ts";
import { takeEpisodes } from "./intake.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 30_000);
afterAll(async () => {
  await t?.close();
});

describe("schedule_episodes with coworld_config_overlay_secret", () => {
  it("queues the episode with the overlay's name; only the runner's lease carries the overlay", async () => {
    const db = t.testStore.store.db;
    const tl = await createTestLeague(t);
    const a = await tl.addPlayer("Ada", { baseline: "greedy" });
    const b = await tl.addPlayer("Bo", { baseline: "random" });
    const versions = [a.policyVersionId, b.policyVersionId];
    await db
      .updateTable("leagues")
      .set({ filler_policy_version_ids: JSON.stringify(versions) })
      .where("id", "=", tl.league.id)
      .execute();
    const coworld = await db
      .selectFrom("coworlds")
      .selectAll()
      .where("id", "=", tl.coworldId)
      .executeTakeFirstOrThrow();
    const doc = JSON.stringify({
      format: "coworld.game_config_overlay.v1",
      game_config_overrides: { turns: 9, key: `secret://coworld/${coworld.name}/signing_key` },
    });
    for (const [name, value] of [
      ["qualifying_roster_42", doc],
      ["signing_key", "PRIVATE-KEY-77"],
    ] as const) {
      const put = await http("PUT", `${t.url}/v2/coworlds/secrets/${coworld.name}/${name}`, {
        token: tl.commissioner.token,
        body: value,
        headers: { "content-type": "application/octet-stream" },
      });
      expect(put.status).toBe(200);
    }
    const league = await db
      .selectFrom("leagues")
      .selectAll()
      .where("id", "=", tl.league.id)
      .executeTakeFirstOrThrow();
    const division = await db
      .selectFrom("divisions")
      .select("id")
      .where("league_id", "=", league.id)
      .executeTakeFirstOrThrow();
    const round = {
      id: newId("round"),
      league_id: league.id,
      division_id: division.id,
      round_number: 1,
      status: "running" as const,
      active: 1,
      commissioner_key: "coworld",
      execution_backend: "process",
      coworld_id: coworld.id,
      round_config: "{}",
      round_display: "{}",
      episode_count: 0,
      error: null,
      started_at: new Date().toISOString(),
      completed_at: null,
      created_at: new Date().toISOString(),
    };
    await db.insertInto("rounds").values(round).execute();
    const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
    const request = (id: string, tags: Record<string, string>) => ({
      request_id: id,
      variant_id: "duel-small",
      policy_version_ids: versions,
      tags,
      game_config_overrides: {},
    });
    const intake = await takeEpisodes(
      db,
      league,
      round,
      coworld,
      manifest,
      [
        request("with-overlay", {
          stage: "q",
          coworld_config_overlay_secret: "qualifying_roster_42",
        }),
        request("unknown", { coworld_config_overlay_secret: "nope" }),
        // Tags every episodes listing would serve: megabytes of them are refused.
        request("huge", { stage: "x".repeat(1024 * 1024) }),
      ],
      new Set(),
    );
    expect(intake.accepted).toEqual(["with-overlay"]);
    expect(intake.errors.unknown).toMatch(/has no secret nope/);
    expect(intake.errors.huge).toMatch(
      /tags and game_config_overrides are \d+ bytes of JSON, past/,
    );

    const episode = await db
      .selectFrom("episode_requests")
      .select(["id", "config_overlay_secret", "game_config"])
      .where("round_id", "=", round.id)
      .executeTakeFirstOrThrow();
    expect(episode.config_overlay_secret).toBe("qualifying_roster_42");
    expect(episode.game_config).not.toContain("PRIVATE-KEY-77");
    const view = await client(t.url, tl.commissioner.token).get(
      `/v2/episode-requests/${episode.id}`,
    );
    expect(view.text).not.toContain("PRIVATE-KEY-77");

    const runner = client(t.url, await t.machineToken("intake-runner"));
    const leased = await runner.post<{
      jobs: { episode_request_id: string; game_config_overlay?: Record<string, unknown> }[];
    }>("/v2/runner/jobs/lease", {
      runner_id: "r1",
      capacity: 4,
      runtimes: ["process"],
      isolation: "sandbox",
    });
    const job = leased.body.jobs.find((j) => j.episode_request_id === episode.id);
    expect(job?.game_config_overlay).toEqual({
      turns: 9,
      key: `data:application/octet-stream;base64,${Buffer.from("PRIVATE-KEY-77").toString("base64")}`,
    });
  });
});
