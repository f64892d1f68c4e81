// `gauntlet tournament …` against a real server, run as a child process: a two-entrant cup from
// draft to running and cancelled, a double elimination's brackets, and bad input refused with one
// line.
import { rmSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  createTestLeague,
  startTestServer,
  type TestLeague,
  type TestPlayer,
  type TestServer,
} from "@gauntlet/server/testing";

import { json, newConfigHome, runCli } from "./run-cli.ts";

let server: TestServer;
let home: string;
let tl: TestLeague;
let entrants: TestPlayer[];

const cli = (args: readonly string[], token = tl.commissioner.token) =>
  runCli(args, {
    env: { GAUNTLET_SERVER: server.url, GAUNTLET_TOKEN: token, XDG_CONFIG_HOME: home },
  });

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  tl = await createTestLeague(server);
  entrants = [await tl.addPlayer("Ava"), await tl.addPlayer("Ben")];
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("gauntlet tournament", () => {
  it("creates, lists, locks, starts, advances and cancels a cup", async () => {
    const policies = entrants.flatMap((e) => ["--policy", e.policyVersionId]);
    const created = json(
      await cli([
        "tournament",
        "create",
        tl.league.id,
        "--name",
        "CLI Cup",
        ...policies,
        "--episodes",
        "2",
        "--json",
      ]),
    ) as { id: string; status: string; entrants: unknown[] };
    expect(created).toMatchObject({ status: "draft" });
    expect(created.entrants).toHaveLength(2);
    expect((await cli(["tournament", "list", tl.league.id])).stdout).toContain("CLI Cup");
    const locked = await cli(["tournament", "lock", created.id]);
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.stdout).toMatch(/#1 Ava/);
    expect(
      (json(await cli(["tournament", "start", created.id, "--json"])) as { status: string }).status,
    ).toBe("running");
    expect(
      (json(await cli(["tournament", "advance", created.id, "--json"])) as { waves: string[] })
        .waves,
    ).toHaveLength(1);
    expect(
      (json(await cli(["tournament", "cancel", created.id, "--json"])) as { status: string })
        .status,
    ).toBe("cancelled");
    expect((await cli(["tournament", "get", created.id])).stdout).toMatch(/status:\s+cancelled/);
    const again = await cli(["tournament", "cancel", created.id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("refuses a malformed id, format or policy with one error line and a non-zero exit", async () => {
    for (const args of [
      ["tournament", "get", "nope"],
      ["tournament", "create", tl.league.id, "--name", "x", "--format", "swiss"],
      ["tournament", "create", tl.league.id, "--name", "x", "--policy", "not-a-uuid"],
    ]) {
      const bad = await cli(args);
      expect(bad.code, args.join(" ")).not.toBe(0);
      expect(bad.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
  }, 60_000);

  it("shows a double elimination's brackets", async () => {
    const policies = entrants.flatMap((e) => ["--policy", e.policyVersionId]);
    const created = json(
      await cli([
        "tournament",
        "create",
        tl.league.id,
        "--name",
        "Twice",
        "--format",
        "double_elimination",
        ...policies,
        "--json",
      ]),
    ) as { id: string };
    const locked = await cli(["tournament", "lock", created.id]);
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.stdout).toMatch(/BRACKET/);
    expect(locked.stdout).toMatch(/winners\s+1\s+#1 Ava\s+#2 Ben/);
    expect(locked.stdout).toMatch(/final\s+1/);
  }, 60_000);
});
