// `gauntlet episode …` without a process: parsing, downloads to standard output or a file, and
// list/show on a terminal, off one and with --json, against a real server on a free port whose
// episodes a scripted runner plays.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { afterAll, describe, expect, it, vi } from "vitest";

import { createTestLeague, scriptedRunner, type TestLeague } from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { bundleCommand, type BundleOptions } from "./bundle.ts";
import { logsCommand, type LogsOptions } from "./logs.ts";

/** What the scripted runner says the episode used of the CPU. */
const CPU = {
  seats: [1.5, 0.25],
  game: 0.3,
  cpus_per_runnable: 1,
  unmeasured: null,
  runner: { cores: 2, busy_fraction: 0.95, load_average: 3.1, over_committed: true },
};

let fixture: TestLeague;
let roundId = "";
let episodeId = "";
let dir = "";

const cli = useCliServer(async (server) => {
  dir = mkdtempSync(join(tmpdir(), "gauntlet-episode-"));
  fixture = await createTestLeague(server);
  await fixture.submit(await fixture.addPlayer("Alpha"));
  await fixture.submit(await fixture.addPlayer("Beta", { baseline: "wanderer" }));
  const started = await cli
    .sdk(fixture.commissioner.token)
    .leagues.triggerRound({ league_id: fixture.league.id, body: {} });
  roundId = started.rounds[0]?.id ?? "";
  const runner = await scriptedRunner(server);
  const jobs = await runner.lease();
  for (const job of jobs) {
    await runner.upload(job, "replay", '{"turn":1}\n');
    await runner.upload(job, "policy-log-0", "seat 0 thinking\n");
    await runner.upload(job, "logs", "game: turn 1 of 30\n");
    await runner.complete(
      job,
      job.players.map((p) => 10 - p.position),
      { cpu: CPU },
    );
  }
  episodeId =
    (await cli.sdk(fixture.commissioner.token).episodeRequests.list({ round_id: roundId }))
      .entries[0]?.id ?? "";
  return fixture.commissioner.token;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const { gauntlet, sdk, factory } = cli;

describe("parsing", () => {
  it("logs: the seat as a number; none (the game's log) unless given", async () => {
    expect(
      await parsed<LogsOptions>(
        (parent, run) => logsCommand(parent, factory(), run),
        ["logs", episodeId, "--seat", "1", "--json"],
      ),
    ).toEqual({ episodeId, seat: 1, json: true });
    expect(
      await parsed<LogsOptions>(
        (parent, run) => logsCommand(parent, factory(), run),
        ["logs", episodeId],
      ),
    ).toEqual({ episodeId, seat: null, json: false });
  });

  it("bundle: --include read into the parts the server knows", async () => {
    expect(
      await parsed<BundleOptions>(
        (parent, run) => bundleCommand(parent, factory(), run),
        ["bundle", episodeId, "--include", "results,replay", "-o", "x.zip"],
      ),
    ).toMatchObject({ episodeId, include: ["results", "replay"], output: "x.zip" });
  });

  it.each([
    [
      ["episode", "show", "round_x"],
      /^gauntlet: EPISODE: 'round_x' is not a valid id \(expected ereq_<uuid>/,
    ],
    [
      ["episode", "list", "--limit", "0"],
      /^gauntlet: --limit: expected a positive whole number, got '0'\n$/,
    ],
    [
      ["episode", "logs", "EPISODE", "--seat", "-1"],
      /^gauntlet: --seat: expected 0 or a positive whole number, got '-1'\n$/,
    ],
    [["episode", "bundle", "EPISODE", "--include", "everything"], /^gauntlet: --include: .+\n$/],
    [["episode", "upload"], /^gauntlet: missing required argument 'files'\n$/],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    const result = await gauntlet(args.map((a) => (a === "EPISODE" ? episodeId : a)));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(stderr);
  });

  it("upload refuses a file that is not DuckDB before sending anything", async () => {
    const file = join(dir, "results.csv");
    writeFileSync(file, "id,score\n1,2\n");
    expect(await gauntlet(["episode", "upload", file])).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${file}: not a DuckDB file (the server reads DuckDB files only; see gauntlet episode upload --help)\n`,
    });
  });

  it("a seat the episode does not have is exit 3, naming the seats it has", async () => {
    expect(await gauntlet(["episode", "logs", episodeId, "--seat", "7"])).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: --seat: episode ${episodeId} has seats 0, 1\n`,
    });
  });
});

describe("output", () => {
  it("list and show: --json is the API's response; tables bold only on a terminal", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    expect(
      JSON.parse((await gauntlet(["episode", "list", "--round", roundId, "--json"])).stdout),
    ).toEqual(await sdk().episodeRequests.list({ round_id: roundId, limit: 20 }));
    expect(JSON.parse((await gauntlet(["episode", "show", episodeId, "--json"])).stdout)).toEqual(
      await sdk().episodeRequests.get({ episode_request_id: episodeId }),
    );

    // The seating order is the round's draw: name the seats as the API has them.
    const seated = (await sdk().episodeRequests.get({ episode_request_id: episodeId }))
      .participants;
    const [first, second] = [...seated]
      .sort((x, y) => x.position - y.position)
      .map((p) => `${p.player_name ?? ""} \\(${p.policy_name} v${p.version ?? ""}\\)`);
    const list = await gauntlet(["episode", "list", "--round", roundId]);
    // Who played (the commissioner's seats starred), the scores and who won.
    expect(list.stdout).toMatch(
      new RegExp(
        `^ID\\s+PLAYERS\\s+SCORES\\s+RESULT\\s+CREATED\\n${episodeId}\\s+${first}\\* vs ${second}\\*\\s+10 9\\s+seat 0 ${first} won\\s`,
      ),
    );
    const tty = await gauntlet(["episode", "list", "--round", roundId], { isTTY: true });
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);
    expect(tty.stdout).not.toBe(list.stdout);

    const show = await gauntlet(["episode", "show", episodeId]);
    expect(show.stdout).toMatch(
      new RegExp(`^id:\\s+${episodeId}\\nstatus:\\s+completed\\nresult:\\s+seat 0 ${first} won\\n`),
    );
    // What each seat and the game used of the CPU, and how busy the runner was.
    expect(show.stdout).toMatch(
      /\ngame cpu:\s+0\.30 s\ncpu cap:\s+1 per seat\nrunner:\s+2 cores, 95% busy, load 3\.10, over-committed\n/,
    );
    expect(show.stdout).toMatch(
      new RegExp(
        `\\nSEAT\\s+PLAYER\\s+SCORE\\s+RESULT\\s+CPU\\n0 \\*\\s+${first}\\s+10\\s+won\\s+1\\.50 s\\n1 \\*\\s+${second}\\s+9\\s+lost\\s+0\\.25 s\\n\\* your seat\\n$`,
      ),
    );
    // Signed out, no seat is anyone's.
    const anonymous = await gauntlet(["episode", "show", episodeId], { token: null });
    expect(anonymous.stdout).toMatch(/\n0\s+\S/);
    expect(anonymous.stdout).not.toContain("your seat");
  });

  it("list --mine, --policy (id or name) and --player filter by who played", async () => {
    const ids = async (args: string[], token = fixture.commissioner.token) => {
      const result = await gauntlet(["episode", "list", "--round", roundId, ...args, "--json"], {
        token,
      });
      expect(result.stderr).toBe("");
      return (JSON.parse(result.stdout) as { entries: { id: string }[] }).entries.map((e) => e.id);
    };
    expect(await ids(["--mine"])).toEqual([episodeId]);
    const stranger = await cli.server.newUser();
    expect(await ids(["--mine"], stranger.token)).toEqual([]);
    const episode = await sdk().episodeRequests.get({ episode_request_id: episodeId });
    const alpha = episode.participants[0];
    expect(await ids(["--player", alpha?.player_id ?? ""])).toEqual([episodeId]);
    expect(await ids(["--policy", alpha?.policy_id ?? ""])).toEqual([episodeId]);
    expect(await ids(["--policy", alpha?.policy_name ?? ""])).toEqual([episodeId]);
    const unknown = await gauntlet(["episode", "list", "--policy", "no-such-policy"]);
    expect(unknown).toMatchObject({ code: 3, stdout: "" });
    expect(unknown.stderr).toBe("gauntlet: --policy: no policy named 'no-such-policy'\n");
  });

  it("replay and logs go to standard output as they are; -o writes a file and says so", async () => {
    expect(await gauntlet(["episode", "replay", episodeId])).toEqual({
      code: 0,
      stdout: '{"turn":1}\n',
      stderr: "",
    });
    // The game's log by default; a seat's policy log with --seat.
    expect(await gauntlet(["episode", "logs", episodeId])).toEqual({
      code: 0,
      stdout: "game: turn 1 of 30\n",
      stderr: "",
    });
    expect(JSON.parse((await gauntlet(["episode", "logs", episodeId, "--json"])).stdout)).toEqual({
      episode_request_id: episodeId,
      seat: null,
      log: "game: turn 1 of 30\n",
    });
    expect((await gauntlet(["episode", "logs", episodeId, "--seat", "0"])).stdout).toBe(
      "seat 0 thinking\n",
    );
    expect(
      JSON.parse((await gauntlet(["episode", "logs", episodeId, "--seat", "0", "--json"])).stdout),
    ).toEqual({ episode_request_id: episodeId, seat: 0, log: "seat 0 thinking\n" });
    // Someone the game's log is not for is told so in one line.
    const stranger = await cli.server.newUser();
    const refused = await gauntlet(["episode", "logs", episodeId], { token: stranger.token });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^gauntlet: .+\n$/);

    const file = join(dir, "replay.jsonl");
    expect(await gauntlet(["episode", "replay", episodeId, "-o", file])).toEqual({
      code: 0,
      stdout: "",
      stderr: `wrote 11 bytes to ${file}\n`,
    });
    expect(readFileSync(file, "utf8")).toBe('{"turn":1}\n');
  });

  it("a seat that uploaded no artifact is exit 3", async () => {
    expect(await gauntlet(["episode", "artifact", episodeId, "--seat", "1"])).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: seat 1 of ${episodeId} uploaded no artifact\n`,
    });
  });
});
