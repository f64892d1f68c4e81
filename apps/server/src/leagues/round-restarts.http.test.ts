// Rounds over real HTTP: a restarted server resumes its rounds, rounds use the embedded
// resources, and rounds read as their pages and details say.
import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import type { CompetitionEvent, LeaguePolicyMembership, LeagueSubmission } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import {
  pause,
  playRound,
  round,
  rounds,
  STRENGTH,
  trigger,
  useRoundServers,
} from "../../testing/rounds.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
} from "../../testing/test-league.ts";
import { createTestStore } from "../../testing/test-store.ts";
import { loadSecretBox } from "../auth/secret-box.ts";
import { DirectoryBlobStore } from "../blobs/blob-store.ts";
import { complete } from "../episodes/job-completion.ts";
import { openStore } from "../store/database.ts";

const servers = useRoundServers();
let manual: TestServer;
beforeAll(() => {
  manual = servers.manual();
});

describe("a restarted server", () => {
  it("settles, from the database alone, the round whose episodes finished while it was down", async () => {
    const storeA = await createTestStore();
    const first = await startTestServer({ testStore: storeA, env: { GAUNTLET_SCHEDULER: "off" } });
    const tl = await createTestLeague(first);
    for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(first, tl);
    const roundId = started.rounds[0]?.id ?? "";
    const runner = await scriptedRunner(first);
    const jobs = await runner.lease();
    expect(jobs).toHaveLength(3);
    const machineId = (await client(first.url, runner.token).get<{ subject_id: string }>("/whoami"))
      .body.subject_id;
    await first.server.close();

    // The runner finishes while no server runs (as if the last one crashed after recording them).
    const store = openStore({
      dataDir: storeA.dataDir,
      databaseUrl: storeA.databaseUrl,
      pgSchema: storeA.pgSchema,
    });
    const queue = {
      db: store.db,
      blobs: new DirectoryBlobStore(join(storeA.dataDir, "blobs")),
      box: loadSecretBox(storeA.dataDir, undefined),
    };
    for (const job of jobs)
      await complete(
        queue,
        job.job_id,
        { machineId, token: job.lease_token },
        {
          scores: byStrength(STRENGTH)(
            job.players.map((p) => p.display_name),
            job,
          ),
          winner_slot: 0,
          turns: 5,
          seed: 1,
        },
      );

    const second = await startTestServer({
      testStore: { ...storeA, store },
      env: { GAUNTLET_SCHEDULER_TICK_MS: "30" },
    });
    try {
      const settled = await eventually("the round after the restart", async () => {
        const r = await round(second, roundId);
        return r.status === "completed" ? r : null;
      });
      expect(settled.results.map((r) => r.player?.name)).toEqual(["Ada", "Bo", "Cy"]);
      await pause(second, tl, true);
    } finally {
      await second.server.close();
      await storeA.cleanup();
    }
  });
});

describe("embedded resources", () => {
  it("are whole in rounds, round results, memberships, submissions and the feed, as the hosted service's clients read them", async () => {
    const tl = await createTestLeague(manual);
    const runner = await scriptedRunner(manual);
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(manual, tl);
    const detail = await playRound(manual, runner, started.rounds[0]?.id ?? "", STRENGTH);

    // A Division carries its whole League, which carries its whole Game.
    const wholeDivision = {
      id: expect.any(String),
      created_at: expect.any(String),
      league: {
        id: tl.league.id,
        created_at: expect.any(String),
        commissioner_key: expect.any(String),
        game: { id: expect.any(String), name: expect.any(String), created_at: expect.any(String) },
      },
    };
    const wholeVersion = {
      id: expect.any(String),
      version: expect.any(Number),
      policy: { id: expect.any(String), name: expect.any(String) },
    };
    expect(detail.division).toMatchObject(wholeDivision);
    expect(detail.results.length).toBeGreaterThan(0);
    for (const result of detail.results) expect(result.policy_version).toMatchObject(wholeVersion);
    expect((await rounds(manual, `league_id=${tl.league.id}`)).entries[0]?.division).toMatchObject(
      wholeDivision,
    );

    const memberships = await client(manual.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?league_id=${tl.league.id}`,
    );
    expect(memberships.body.length).toBe(2);
    for (const m of memberships.body)
      expect(m).toMatchObject({
        league: wholeDivision.league,
        division: wholeDivision,
        policy_version: wholeVersion,
      });

    const submissions = await client(manual.url).get<LeagueSubmission[]>(
      `/v2/league-submissions?league_id=${tl.league.id}`,
    );
    expect(submissions.body.length).toBe(2);
    for (const s of submissions.body)
      expect(s).toMatchObject({ league: wholeDivision.league, policy_version: wholeVersion });

    const feed = await client(manual.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    const settled = feed.body.find((e) => e.event_type === "round_completed");
    expect(settled).toMatchObject({ league: wholeDivision.league, division: wholeDivision });
    const placed = feed.body.find((e) => e.policy_version !== null);
    expect(placed?.policy_version).toMatchObject(wholeVersion);
  });
});

describe("round reads", () => {
  it("hide a private league's rounds and pools from those who cannot see it", async () => {
    const tl = await createTestLeague(manual, { public: false });
    for (const name of ["Ada", "Bo"]) await tl.submit(await tl.addPlayer(name));
    const started = await trigger(manual, tl);
    const id = started.rounds[0]?.id ?? "";
    expect((await client(manual.url).get(`/v2/rounds/${id}`)).status).toBe(404);
    expect((await client(manual.url).get(`/v2/pools?round_id=${id}`)).status).toBe(404);
    expect((await rounds(manual, `league_id=${tl.league.id}`)).total_count).toBe(0);
    expect((await round(manual, id, tl.commissioner.token)).id).toBe(id);
    const unknown = await client(manual.url).get<{ detail: { loc: string[] }[] }>(
      "/v2/rounds/round_x",
    );
    expect(unknown.status).toBe(422);
  });
});
