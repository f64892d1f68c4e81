// gauntlet eval … and gauntlet episode bundle|upload against a real server (started on a free
// port), run as a child process; this test plays the runner. `--json` output is compared with
// the same call made through the SDK.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";
import { createClient } from "@gauntlet/sdk";
import {
  byStrength,
  createTestLeague,
  scriptedRunner,
  startTestServer,
  writeEpisodeFile,
  type TestLeague,
  type TestPlayer,
  type TestServer,
} from "@gauntlet/server/testing";

import { json, newConfigHome, runCli, type CliOptions } from "./run-cli.ts";

let server: TestServer;
let home: string;
let tl: TestLeague;
let ada: TestPlayer;
let bob: TestPlayer;
let sdk: ReturnType<typeof createClient>;

function cli(args: readonly string[], options: CliOptions = {}) {
  return runCli(args, {
    ...options,
    env: {
      GAUNTLET_SERVER: server.url,
      GAUNTLET_TOKEN: tl.commissioner.token,
      XDG_CONFIG_HOME: home,
      ...options.env,
    },
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  tl = await createTestLeague(server);
  ada = await tl.addPlayer("Ada");
  bob = await tl.addPlayer("Bob");
  sdk = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: tl.commissioner.token,
  });
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** The evaluation the first test plays to the end; the later tests read it. */
let ended: ExperienceRequestDetail;

describe("gauntlet eval", () => {
  it("creates an evaluation and --wait follows it until its episodes are played", async () => {
    const run = cli([
      "eval",
      "create",
      "--coworld",
      tl.coworldId,
      "--policy",
      ada.policyVersionId,
      "--policy",
      bob.policyVersionId,
      "--episodes",
      "3",
      "--notes",
      "from the cli",
      "--wait",
      "--json",
    ]);
    let done = false;
    void run.finally(() => (done = true));
    // The runner: plays whatever is queued until the command has seen the evaluation end.
    const runner = await scriptedRunner(server);
    while (!done) {
      await runner.runQueued(byStrength({ Ada: 2, Bob: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    ended = json(await run) as ExperienceRequestDetail;
    expect(ended.status).toBe("completed");
    expect(ended.notes).toBe("from the cli");
    expect([ended.episode_count, ended.completed_count]).toEqual([3, 3]);
    expect(ended.episodes.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
    expect(ended).toEqual(await sdk.experienceRequests.get({ experience_request_id: ended.id }));
  });

  it("lists, shows and lists the episodes of evaluations, as the API answers", async () => {
    expect(json(await cli(["eval", "list", "--json"]))).toEqual(
      await sdk.experienceRequests.list({ limit: 20, offset: 0 }),
    );
    const table = await cli(["eval", "list"]);
    expect(table.stdout).toContain(ended.id);
    expect(table.stdout).toContain("3/3");

    expect(json(await cli(["eval", "get", ended.id, "--json"]))).toEqual(
      await sdk.experienceRequests.get({ experience_request_id: ended.id }),
    );
    const shown = await cli(["eval", "get", ended.id]);
    expect(shown.stdout).toMatch(/status:\s+completed/);
    expect(shown.stdout).toContain(ended.episodes[0]?.id ?? "no episode");
    // Each seat's record: Ada (seat 0, the stronger) won all three; both seats are the caller's.
    expect(shown.stdout).toMatch(
      /\n0 \*\s+Ada \(.+\)\s+3\s+0\s+0\s+0\s+\S+\n1 \*\s+Bob \(.+\)\s+0\s+3\s+0\s+0\s+\S+\n\* your seat\n$/,
    );

    expect(json(await cli(["eval", "episodes", ended.id, "--json"]))).toEqual(
      await sdk.experienceRequests.episodes({ experience_request_id: ended.id }),
    );
  });

  it("cancels a queued evaluation; cancelling one that ended is one line and exit 1", async () => {
    const created = json(
      await cli([
        "eval",
        "create",
        "--league",
        tl.league.name,
        "--policy",
        ada.policyVersionId,
        "--policy",
        bob.policyVersionId,
        "--episodes",
        "2",
        "--json",
      ]),
    ) as ExperienceRequestDetail;
    expect(created.league_id).toBe(tl.league.id);
    const cancelled = json(
      await cli(["eval", "cancel", created.id, "--json"]),
    ) as ExperienceRequestDetail;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cancelled_count).toBe(2);

    const again = await cli(["eval", "cancel", created.id]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses bad input with one line before or from the server", async () => {
    const noTarget = await cli(["eval", "create", "--policy", ada.policyVersionId]);
    expect([noTarget.code, noTarget.stderr.trim()]).toEqual([
      2,
      "gauntlet: give where to play: --coworld, --league or --division",
    ]);
    const noRoster = await cli(["eval", "create", "--coworld", tl.coworldId]);
    expect(noRoster.code).toBe(2);
    expect(noRoster.stderr).toMatch(/--policy/);
    const tooMany = await cli([
      "eval",
      "create",
      "--coworld",
      tl.coworldId,
      "--policy",
      ada.policyVersionId,
      "--episodes",
      "101",
    ]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/num_episodes/);
    const badId = await cli(["eval", "get", "nope"]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/xreq_/);
  });

  it("has help with examples", async () => {
    const help = await cli(["eval", "create", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples:");
    expect(help.stdout).toContain("--wait");
  });
});

describe("gauntlet episode bundle and upload", () => {
  it("downloads an episode's artifacts as a zip", async () => {
    const episode = ended.episodes[0];
    if (!episode) throw new Error("the played evaluation has no episode");
    const out = join(home, "episode.zip");
    const wrote = await cli([
      "episode",
      "bundle",
      episode.id,
      "-o",
      out,
      "--include",
      "results,spec",
    ]);
    expect(wrote.code).toBe(0);
    expect(wrote.stderr).toMatch(/^wrote \d+ bytes to .*episode\.zip\n$/);
    const zip = readFileSync(out).toString("latin1");
    expect(zip.slice(0, 2)).toBe("PK");
    expect(zip).toContain("results");
    const bad = await cli(["episode", "bundle", episode.id, "--include", "everything"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--include: unknown part "everything"/);
  });

  it("uploads DuckDB files of episodes played elsewhere, and refuses other files before sending", async () => {
    const first = join(home, "first.duckdb");
    const second = join(home, "second.duckdb");
    await writeEpisodeFile(first, {
      episodes: 5,
      coworldId: tl.coworldId,
      policyVersionIds: [ada.policyVersionId, bob.policyVersionId],
    });
    await writeEpisodeFile(second, {
      episodes: 3,
      coworldId: tl.coworldId,
      policyVersionIds: [bob.policyVersionId, ada.policyVersionId],
    });
    const uploaded = json(await cli(["episode", "upload", first, second, "--json"])) as {
      file: string;
      episodes_created: number;
    }[];
    expect(uploaded.map((u) => [u.file, u.episodes_created])).toEqual([
      [first, 5],
      [second, 3],
    ]);
    const plain = await cli(["episode", "upload", first]);
    expect(plain.stderr).toMatch(/first\.duckdb: \d+ episodes created/);

    const jsonl = join(home, "episodes.jsonl");
    writeFileSync(jsonl, '{"id":"ep-1"}\n');
    const refused = await cli(["episode", "upload", jsonl]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/episodes\.jsonl: not a DuckDB file/);
  });
});
