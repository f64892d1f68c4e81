// `gauntlet play …` without a process: what it parses its arguments into, bad input as one plain
// line and exit 2, and the session's address on standard output, off a terminal and with --json,
// against a real server on a free port whose coworld has a browser client; and, as the README's
// quick start has it, the example coworld by its name against the demo league's baselines.
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import {
  createTestLeague,
  GRIDRUSH_DIR,
  packDirectory,
  seedDemoLeague,
  type TestLeague,
} from "@gauntlet/server/testing";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { playCommand, type PlayOptions } from "./index.ts";

let tl: TestLeague;
let demo: Awaited<ReturnType<typeof seedDemoLeague>>;
/** A user with no policies of their own, who plays the demo's baselines. */
let newcomer: string;
const cli = useCliServer(async (server) => {
  demo = await seedDemoLeague(server);
  newcomer = (await server.newUser()).token;
  tl = await createTestLeague(server);
  await tl.addPlayer("Alpha");
  const admin = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
    elevated: true,
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
      coworld: COWORLD,
      opponents: ["bot-a", "bot-b:v2"],
      variant: null,
      config: { turn_timeout_ms: 5000 },
      json: true,
    });
  });

  it.each([
    [["play", COWORLD], "required option '--opponent <policy>' not specified"],
    [
      ["play", "cow_gridrush", "--opponent", "x"],
      "COWORLD: 'cow_gridrush' is not a valid id (expected cow_<uuid>, e.g. cow_00000000-0000-4000-8000-000000000000)",
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

describe("names, as the quick start gives them", () => {
  const seated = async (episodeId: string) =>
    (await cli.sdk(newcomer).episodeRequests.get({ episode_request_id: episodeId }))
      .policy_version_ids;
  const demoVersions = async (name: string) =>
    (await cli.sdk().policyVersions.search({ name_exact: name })).entries.map((v) => v.id);

  it("plays the example coworld by name against a baseline by its name (greedy or demo-greedy)", async () => {
    expect(demo.coworldName).toBe("gridrush");
    const greedy = await demoVersions("demo-greedy");
    expect(greedy).toHaveLength(2);
    for (const opponent of ["greedy", "demo-greedy", "demo-greedy:v1"]) {
      const played = await cli.gauntlet(["play", "gridrush", "--opponent", opponent, "--json"], {
        token: newcomer,
      });
      expect(played.code, played.stderr).toBe(0);
      const session = JSON.parse(played.stdout) as {
        coworld_id: string;
        episode_request_id: string;
        join_url: string | null;
      };
      expect(session.coworld_id).toBe(demo.coworldId);
      expect(session.join_url).toMatch(/index\.html#ws=/);
      const [, opponentVersion] = await seated(session.episode_request_id);
      expect(greedy).toContain(opponentVersion);
    }
  });

  // Anyone may call a policy `greedy` and open it: the newcomer typing the demo's name still
  // meets the demo's baseline, not a stranger's bot.
  it("prefers the demo's baseline to a stranger's open policy of the same name", async () => {
    const stranger = await cli.server.newUser();
    const player = await tl.addPlayer("Stranger", { owner: { token: stranger.token } });
    const theirs = await tl.addVersion(player, "greedy", { token: stranger.token });
    // Entered in a public league: anyone can find it by its name.
    await tl.submit(player, { policy_version_id: theirs }, stranger.token);
    const opened = await cli.gauntlet(["policy", "scrimmage", theirs, "on"], {
      token: stranger.token,
    });
    expect(opened.code, opened.stderr).toBe(0);
    const played = await cli.gauntlet(["play", "gridrush", "--opponent", "greedy", "--json"], {
      token: newcomer,
    });
    expect(played.code, played.stderr).toBe(0);
    const session = JSON.parse(played.stdout) as { episode_request_id: string };
    const [, opponentVersion] = await seated(session.episode_request_id);
    expect(await demoVersions("demo-greedy")).toContain(opponentVersion);
    expect(opponentVersion).not.toBe(theirs);
  });

  it("takes a coworld's name as its canonical version, and your own policy's name first", async () => {
    const { name } = await cli.sdk().coworlds.get({ coworld_id: tl.coworldId });
    const [canonical] = await cli.sdk().coworlds.list({ name, canonical_only: true });
    const played = await cli.gauntlet(["play", name, "--opponent", "greedy-alpha", "--json"]);
    expect(played.code, played.stderr).toBe(0);
    expect((JSON.parse(played.stdout) as { coworld_id: string }).coworld_id).toBe(canonical?.id);
  });

  it.each([
    [
      ["play", "no-such-world", "--opponent", "greedy"],
      "COWORLD: no coworld named 'no-such-world' (see gauntlet coworld list)",
    ],
    [
      ["play", "gridrush", "--opponent", "nobody"],
      "--opponent: no policy 'nobody' or 'demo-nobody' of yours or open to scrimmage (see gauntlet policy list)",
    ],
    [
      ["play", "gridrush", "--opponent", "greedy:v9"],
      "--opponent: no policy 'greedy' or 'demo-greedy' of yours or open to scrimmage with a version v9 (see gauntlet policy list)",
    ],
  ])("%j: a name that is not there is one line and exit 3", async (args, message) => {
    expect(await cli.gauntlet(args, { token: newcomer })).toEqual({
      code: 3,
      stdout: "",
      stderr: `gauntlet: ${message}\n`,
    });
  });
});
