// Bad input and failures: one plain line on standard error (never a stack trace) and the
// documented exit code.
import { rmSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { newConfigHome, runCli, type CliResult } from "./run-cli.ts";

let server: TestServer;
let home: string;

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

function cli(args: readonly string[], env: Record<string, string | undefined> = {}) {
  return runCli(args, {
    env: {
      GAUNTLET_SERVER: server.url,
      GAUNTLET_TOKEN: server.adminToken,
      XDG_CONFIG_HOME: home,
      ...env,
    },
  });
}

function oneLine(result: CliResult): string {
  const lines = result.stderr.split("\n").filter(Boolean);
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).toBe("");
  return lines[0] ?? "";
}

describe("bad input", () => {
  it("an unknown league: not found, with its id (exit 3)", async () => {
    const id = "league_00000000-0000-4000-8000-00000000dead";
    const result = await cli(["league", "show", id]);
    expect(result.code).toBe(3);
    expect(oneLine(result)).toBe(`gauntlet: not found: league ${id} was not found.`);
  });

  it("a malformed id: which argument and the expected form (exit 2, no request)", async () => {
    const result = await cli(["leaderboard", "div_nope"]);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toBe(
      "gauntlet: DIVISION: 'div_nope' is not a valid id (expected div_<uuid>, e.g. div_00000000-0000-4000-8000-000000000000)",
    );
    const flag = await cli(["division", "list", "--league", "league_nope"]);
    expect(flag.code).toBe(2);
    expect(oneLine(flag)).toMatch(
      /^gauntlet: --league: 'league_nope' is not a valid id \(expected league_<uuid>/,
    );
  });

  it("an unknown command: the nearest command (exit 2)", async () => {
    const result = await cli(["leage", "list"]);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toBe("gauntlet: unknown command 'leage' (did you mean league?)");
    const sub = await cli(["league", "lst"]);
    expect(sub.code).toBe(2);
    expect(oneLine(sub)).toBe("gauntlet: unknown command 'lst' (did you mean list?)");
  });

  it("a missing league names the option and how to choose a current one (exit 2)", async () => {
    const result = await cli(["division", "list"]);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toBe(
      "gauntlet: --league: give a league (its name or id), or choose one with `gauntlet league use NAME`",
    );
  });

  it("input the server refuses: the field and why (exit 2)", async () => {
    const result = await cli([
      "league",
      "create",
      "--name",
      " ",
      "--game",
      "game_00000000-0000-4000-8000-000000000000",
    ]);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toMatch(/^gauntlet: invalid name/);
  });
});

describe("failures", () => {
  it("no server and no sign-in: says how to configure one (exit 4)", async () => {
    const result = await cli(["league", "list"], {
      GAUNTLET_SERVER: undefined,
      GAUNTLET_TOKEN: undefined,
    });
    expect(result.code).toBe(4);
    const line = oneLine(result);
    expect(line).toContain("gauntlet auth login");
    expect(line).toContain("--server");
    expect(line).toContain("GAUNTLET_SERVER");
  });

  it("a refused token (401): sign in again (exit 4)", async () => {
    const result = await cli(["auth", "player", "list"], { GAUNTLET_TOKEN: "not-a-real-token" });
    expect(result.code).toBe(4);
    expect(oneLine(result)).toMatch(/run `gauntlet auth login` to sign in again/);
  });

  it("a server that does not answer: cannot reach it (exit 1)", async () => {
    const result = await cli(["league", "list"], { GAUNTLET_SERVER: "http://127.0.0.1:9" });
    expect(result.code).toBe(1);
    expect(oneLine(result)).toMatch(
      /^gauntlet: cannot reach the Gauntlet server \(http:\/\/127\.0\.0\.1:9\)/,
    );
  }, 120_000);

  it("a directory that is not there (exit 2)", async () => {
    const result = await cli([
      "policy",
      "upload",
      "/nonexistent/bot",
      "--name",
      "x",
      "--run",
      "node bot.ts",
    ]);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toBe("gauntlet: DIR: '/nonexistent/bot' is not a directory");
  });

  it("not allowed (403): says so (exit 1)", async () => {
    const { createClient } = await import("@gauntlet/sdk");
    const admin = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: server.url,
      token: server.adminToken,
      elevated: true,
    });
    const game = await admin.games.create({ body: { name: "Forbidden" } });
    const league = await admin.leagues.create({
      body: { name: "Not yours", game_id: game.id, public: true },
    });
    const user = await server.newUser();
    const result = await cli(["league", "pause", league.id], { GAUNTLET_TOKEN: user.token });
    expect(result.code).toBe(1);
    expect(oneLine(result)).toMatch(/^gauntlet: not allowed: /);
  });
});

describe("help", () => {
  it("teaches: examples, configuration and exit codes", async () => {
    const result = await cli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples:[\s\S]*gauntlet auth login/);
    expect(result.stdout).toMatch(/Exit codes:[\s\S]*4 not signed in/);
    const sub = await cli(["league", "create", "--help"]);
    expect(sub.stdout).toMatch(/--json/);
    expect(sub.stdout).toMatch(/Example:/);
  });
});
