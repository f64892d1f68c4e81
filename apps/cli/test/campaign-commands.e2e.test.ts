// `gauntlet campaign show|migrate` against a real server, run as a child process.
import { rmSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { json, newConfigHome, runCli } from "./run-cli.ts";

let server: TestServer;
let home: string;
let leagueId: string;

const cli = (args: readonly string[], token: string) =>
  runCli(args, {
    env: { GAUNTLET_SERVER: server.url, GAUNTLET_TOKEN: token, XDG_CONFIG_HOME: home },
  });

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  const admin = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
    elevated: true,
  });
  const game = await admin.games.create({ body: { name: "campaign-cli" } });
  leagueId = (
    await admin.leagues.create({
      body: {
        name: "Map",
        game_id: game.id,
        public: true,
        settings: { campaign_board: { width: 2, height: 3 } },
      },
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("gauntlet campaign", () => {
  it("shows the board and previews, then applies, a migration", async () => {
    const shown = json(await cli(["campaign", "show", leagueId, "--json"], server.adminToken)) as {
      geometry: { width: number; height: number };
      cells: unknown[];
    };
    expect(shown.geometry).toEqual({ width: 2, height: 3 });
    expect(shown.cells).toHaveLength(6);
    expect((await cli(["campaign", "show", leagueId], server.adminToken)).stdout).toMatch(
      /geometry:\s+2×3/,
    );

    const preview = await cli(["campaign", "migrate", leagueId], server.adminToken);
    expect(preview.code).toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/dry run: nothing changed/);
    const applied = json(
      await cli(["campaign", "migrate", leagueId, "--apply", "--json"], server.adminToken),
    ) as { applied: boolean; dry_run: boolean };
    expect(applied).toMatchObject({ applied: true, dry_run: false });
  });

  it("refuses a malformed league id with one error line and a non-zero exit", async () => {
    const bad = await cli(["campaign", "show", "nope"], server.adminToken);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });
});
