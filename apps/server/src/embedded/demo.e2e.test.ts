// The demo league: what createDemoLeague makes, and `gauntlet-server start` on an empty data
// directory (the README's first command) playing it by itself until its standings move.
// The command runs on SQLite in a temporary directory, so the PostgreSQL run skips that part.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  Coworld,
  EpisodeRequest,
  LeaderboardRow,
  League,
  LeaguePolicyMembership,
  RoundDetail,
  RoundPage,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { TEST_ANONYMOUS_CAPACITIES } from "../../testing/test-capacities.ts";
import { eventually } from "../../testing/test-league.ts";
import { HILL_LEAGUE_NAME } from "./demo-hill.ts";
import { createDemoLeague, DEMO_LEAGUE_NAME, findDemoLeague } from "./demo.ts";
import { registerExampleCoworld } from "./example-coworld.ts";

const MAIN = join(import.meta.dirname, "../cli/main.ts");
const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("createDemoLeague", () => {
  let t: TestServer;
  let example: Coworld;
  beforeAll(async () => {
    t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
    const registered = await registerExampleCoworld(t.server.store, t.server.context.blobs);
    if (!registered) throw new Error("the example coworld was not registered");
    example = registered;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("makes a public league of two divisions with the baselines seeded as an A and a B team, once", async () => {
    const { db, bus } = t.server.leaguePlay;
    const demo = await createDemoLeague(db, t.server.context.blobs, bus, example);
    if (!demo) throw new Error("no demo league");
    expect(demo.league).toMatchObject({
      name: DEMO_LEAGUE_NAME,
      public: true,
      game: { id: example.game_id },
    });
    expect(demo.divisions.map((d) => d.name)).toEqual(["Premier", "Challenger"]);
    expect(demo.players).toBe(6);
    const leagues = await client(t.url).get<League[]>("/v2/leagues");
    expect(leagues.body.map((l) => l.id)).toContain(demo.league.id);
    const memberships = await client(t.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?league_id=${demo.league.id}&champions_only=true`,
    );
    const byDivision = (level: number) =>
      memberships.body
        .filter((m) => m.division.level === level)
        .map((m) => m.player?.name)
        .sort();
    expect(byDivision(1)).toEqual(["Greedy A", "Random A", "Wanderer A"]);
    expect(byDivision(2)).toEqual(["Greedy B", "Random B", "Wanderer B"]);
    expect(memberships.body.every((m) => m.policy_version.name.startsWith("demo-"))).toBe(true);
    expect(await createDemoLeague(db, t.server.context.blobs, bus, example)).toBeNull();
    // A restart's banner finds it again (it used to drop the demo lines).
    expect(await findDemoLeague(db)).toEqual({
      league: await client(t.url)
        .get<League>(`/v2/leagues/${demo.league.id}`)
        .then((r) => r.body),
      divisions: demo.divisions,
      players: 6,
      hill: demo.hill,
    });
    // The A team also enters the hill league, run by the coworld's own commissioner.
    expect(demo.hill).toMatchObject({
      name: HILL_LEAGUE_NAME,
      public: true,
      commissioner_config: { commissioner_runnable_id: "king-of-the-hill" },
    });
  });
});

function start(args: string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-demo-"));
  dirs.push(dataDir);
  // No log level: the command's own default (quiet).
  // The test polls the standings anonymously every 25 ms: a test server's anonymous allowance.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    GAUNTLET_ANONYMOUS_CAPACITIES: TEST_ANONYMOUS_CAPACITIES,
    // The hill league's commissioner is asked for its next round within a second, not a minute.
    GAUNTLET_COMMISSIONER_SCHEDULE_MS: "1000",
  };
  const child = spawn(
    process.execPath,
    [MAIN, "start", "--port", "0", "--data-dir", dataDir, ...args],
    { env },
  );
  children.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const url = () =>
    eventually(
      `the address in:\n${output}`,
      async () => /alt host, at the root\):\s+(http:\/\/\S+)/.exec(output)?.[1] ?? null,
    );
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return { output: () => output, url, stop };
}

describe.skipIf(process.env.DATABASE_URL)("gauntlet-server start", () => {
  it("on an empty data directory plays the demo league by itself until its standings move", async () => {
    const server = start([]);
    const url = await server.url();
    const premier = await eventually(
      `the demo league in:\n${server.output()}`,
      async () => /Premier standings: (\S+)/.exec(server.output())?.[1] ?? null,
    );
    expect(premier.startsWith(url)).toBe(true);
    const moved = await eventually(
      `moving standings (server output:\n${server.output().slice(-3000)})`,
      async () => {
        const rows = (await client(premier).get<LeaderboardRow[] | null>("")).body;
        return rows &&
          rows.some((r) => r.rounds_played > 0) &&
          new Set(rows.map((r) => r.score)).size > 1
          ? rows
          : null;
      },
    );
    expect(moved).toHaveLength(3);
    expect(moved.map((r) => r.player_name).sort()).toEqual(["Greedy A", "Random A", "Wanderer A"]);

    // The second demo league: GridRush's own commissioner, sandboxed on the embedded runner, makes
    // its Hill and plays a round of duels with its tags; its ranking puts its king first.
    const hill = await eventually(`the hill league in:\n${server.output()}`, async () =>
      (await client(url).get<League[]>("/v2/leagues")).body.find(
        (l) => l.name === HILL_LEAGUE_NAME,
      ),
    );
    const round = await eventually(
      `a completed hill round (server output:\n${server.output().slice(-3000)})`,
      async () => {
        const rounds = (
          await client(url).get<RoundPage>(`/v2/rounds?league_id=${hill.id}&status=completed`)
        ).body.entries;
        return rounds[0]
          ? (await client(url).get<RoundDetail>(`/v2/rounds/${rounds[0].id}`)).body
          : null;
      },
      120_000,
    );
    expect(round.division.name).toBe("Hill");
    expect(round.commissioner).toMatchObject({ kind: "coworld", runnable_id: "king-of-the-hill" });
    expect(round.results.map((r) => r.player?.name).sort()).toEqual([
      "Greedy A",
      "Random A",
      "Wanderer A",
    ]);
    const duels = (
      await client(url).get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${round.id}`,
      )
    ).body.entries;
    expect(duels.length).toBeGreaterThanOrEqual(2);
    for (const duel of duels) expect(duel.tags).toMatchObject({ commissioner: "king-of-the-hill" });
    await server.stop();
    // Quiet by default: the banner, then nothing from the runner while episodes play, and the server's own last line.
    expect(server.output()).not.toMatch(/\[runner\]|"level":/);
    expect(server.output()).toMatch(/SIGTERM: shutting down…\nGauntlet stopped\.\n$/);
  });

  it("leaves the demo out with --no-demo", async () => {
    const server = start(["--no-demo", "--no-runner"]);
    const url = await server.url();
    const leagues = await client(url).get<League[]>("/v2/leagues");
    expect(leagues.body).toEqual([]);
    expect(server.output()).not.toContain("Demo league");
    await server.stop();
  });
});
