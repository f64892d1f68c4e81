// `gauntlet play …` without a process: what it parses its arguments into, bad input as one plain
// line and exit 2, and the session's address on standard output, off a terminal and with --json,
// against a real server on a free port whose coworld has a browser client.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import {
  createTestLeague,
  GRIDRUSH_DIR,
  packDirectory,
  type TestLeague,
} from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { playCommand, type PlayOptions } from "./index.ts";

let tl: TestLeague;
const cli = useCliServer(async (server) => {
  tl = await createTestLeague(server);
  await tl.addPlayer("Alpha");
  const admin = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
  });
  await admin.playModules.upload({
    coworld_id: tl.coworldId,
    kind: "player_client",
    body: new Uint8Array(await packDirectory(join(GRIDRUSH_DIR, "play", "client"))),
  });
  return tl.commissioner.token;
});

const COWORLD = "cow_00000000-0000-4000-8000-000000000000";

describe("parsing", () => {
  it("one opponent per --opponent, in order, and the config as an object", async () => {
    expect(
      await parsed<PlayOptions>(
        (parent, run) => playCommand(parent, cli.factory(), run),
        [
          "play",
          COWORLD,
          "--opponent",
          "bot-a",
          "--opponent",
          "bot-b:v2",
          "--config",
          '{"turn_timeout_ms":5000}',
          "--json",
        ],
      ),
    ).toEqual({
      coworldId: COWORLD,
      opponents: ["bot-a", "bot-b:v2"],
      variant: null,
      config: { turn_timeout_ms: 5000 },
      json: true,
    });
  });

  it.each([
    [["play", COWORLD], "required option '--opponent <policy>' not specified"],
    [
      ["play", "gridrush", "--opponent", "x"],
      "COWORLD: 'gridrush' is not a valid id (expected cow_<uuid>, e.g. cow_00000000-0000-4000-8000-000000000000)",
    ],
    [
      ["play", COWORLD, "--opponent", "x", "--config", "[1]"],
      "--config: expected a JSON object, got '[1]'",
    ],
  ])("%j is refused in one line with exit 2", async (args, message) => {
    expect(await cli.gauntlet(args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `gauntlet: ${message}\n`,
    });
  });
});

describe("output", () => {
  it("prints the address alone on standard output, and the session with --json", async () => {
    const args = [
      "play",
      tl.coworldId,
      "--opponent",
      "greedy-alpha",
      "--config",
      '{"turn_timeout_ms":10000}',
    ];
    const played = await cli.gauntlet(args);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toMatch(
      /^http:\/\/\S+\/v2\/play-modules\/pmod_[0-9a-f-]+\/files\/index\.html#ws=ws%3A%2F%2F\S+%2Fsocket%3Ftoken%3D\S+\n$/,
    );
    expect(played.stderr).toMatch(
      /^Open the address above in a browser to play \(session \S+, episode \S+\)\.\n$/,
    );
    const session = JSON.parse((await cli.gauntlet([...args, "--json"])).stdout) as {
      id: string;
      join_url: string | null;
    };
    expect(session.join_url).toMatch(/index\.html#ws=/);
  });
});
