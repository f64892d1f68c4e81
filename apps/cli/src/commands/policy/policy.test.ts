// `gauntlet policy …` without a process: what upload parses its arguments into, bad input as one
// plain line and exit 2, and the output on a terminal, off one and with --json, against a real
// server on a free port.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

import { describe, expect, it, vi } from "vitest";

import { useCliServer } from "../../../test/cli-server.ts";
import { parsed } from "../../../test/parsed.ts";
import { setCurrentLeague } from "../../names/current-league.ts";
import { uploadCommand, type UploadOptions } from "./upload.ts";

let token = "";
let bot = "";

const cli = useCliServer(async (server) => {
  token = (await server.newUser()).token;
  bot = mkdtempSync(join(tmpdir(), "gauntlet-policy-"));
  writeFileSync(join(bot, "bot.ts"), "console.log('hello');\n");
  return token;
});
const { gauntlet, sdk, factory } = cli;

const parsedUpload = (args: readonly string[]) =>
  parsed<UploadOptions>((parent, run) => uploadCommand(parent, factory(), run), args);

describe("parsing", () => {
  it("upload: an image, or DIR packed with its command split into words", async () => {
    expect(await parsedUpload(["upload", "--image", "ghcr.io/me/bot:1", "--name", "b"])).toEqual({
      name: "b",
      source: { image: "ghcr.io/me/bot:1" },
      playerId: null,
      json: false,
    });
    const fromDir = await parsedUpload(["upload", bot, "--name", "b", "--run", " node  bot.ts "]);
    expect(fromDir?.source).toMatchObject({ run: ["node", "bot.ts"] });
    expect(
      fromDir && "bundle" in fromDir.source && fromDir.source.bundle.byteLength,
    ).toBeGreaterThan(0);
  });

  it.each([
    [
      ["policy", "upload", "--name", "b"],
      "gauntlet: policy upload takes a directory or --image REF (one of the two)\n",
    ],
    [
      ["policy", "upload", ".", "--image", "x", "--name", "b"],
      "gauntlet: policy upload takes a directory or --image REF (one of the two)\n",
    ],
    [
      ["policy", "upload", ".", "--name", "b"],
      `gauntlet: --run: say how to start the policy inside DIR, e.g. --run "node bot.ts"\n`,
    ],
    [
      ["policy", "upload", "--image", "x", "--name", "b", "--player", "ply_bob"],
      "gauntlet: --player: 'ply_bob' is not a valid id (expected ply_<uuid>, e.g. ply_00000000-0000-4000-8000-000000000000)\n",
    ],
  ])("%j is refused in one line with exit 2", async (args, stderr) => {
    expect(await gauntlet(args)).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe("output", () => {
  it("with a current league, the hint submits there without --league", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", mkdtempSync(join(tmpdir(), "gauntlet-policy-home-")));
    await setCurrentLeague(cli.url, {
      id: "league_00000000-0000-4000-8000-000000000001",
      name: "Spring League",
    });
    // Another user's upload: the other tests list this file's user's policies.
    const other = await cli.server.newUser();
    const uploaded = await gauntlet(
      ["policy", "upload", bot, "--name", "hint-bot", "--run", "node bot.ts"],
      { token: other.token },
    );
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.stderr).toMatch(
      /^uploaded hint-bot v1 \(\S+\)\nsubmit it to Spring League \(the current league\): gauntlet submit hint-bot:v1\n$/,
    );
  });

  it("uploads two versions, lists them and lists the policy's versions newest first", async () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("TERM", "xterm");
    const first = await gauntlet([
      "policy",
      "upload",
      bot,
      "--name",
      "cli-bot",
      "--run",
      "node bot.ts",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr).toMatch(
      /^uploaded cli-bot v1 \(\S+\)\nsubmit it to a league: gauntlet submit cli-bot:v1 --league NAME\n$/,
    );
    const second = JSON.parse(
      (
        await gauntlet([
          "policy",
          "upload",
          "--image",
          "ghcr.io/me/bot:2",
          "--name",
          "cli-bot",
          "--json",
        ])
      ).stdout,
    ) as { id: string; version: number };
    expect(second.version).toBe(2);

    expect(JSON.parse((await gauntlet(["policy", "list", "--mine", "--json"])).stdout)).toEqual(
      await sdk().policyVersions.list({ mine: true, limit: 50 }),
    );
    const list = await gauntlet(["policy", "list", "--mine"]);
    expect(list.stdout).toMatch(
      /^ID\s+NAME\s+VERSION\s+CREATED\n(\S+\s+cli-bot\s+v[12]\s.*\n){2}$/,
    );
    const tty = await gauntlet(["policy", "list", "--mine"], true);
    expect(tty.stdout.startsWith("\u001b[1mID")).toBe(true);
    expect(stripVTControlCharacters(tty.stdout)).toBe(list.stdout);

    const versions = await gauntlet(["policy", "versions", "cli-bot"]);
    expect(versions.stdout).toMatch(
      new RegExp(`^VERSION\\s+ID\\s+CREATED\\nv2\\s+${second.id}\\s.*\\nv1\\s`),
    );
    expect(await gauntlet(["policy", "versions", "nobody-has-this"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "no policy named nobody-has-this\n",
    });

    // Opened to scrimmage by name (its newest version), closed again by id.
    expect(await gauntlet(["policy", "scrimmage", "cli-bot", "on"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "cli-bot v2: open to scrimmage (anyone may seat it anywhere)\n",
    });
    expect(
      (await sdk().policyVersions.get({ policy_version_id: second.id })).open_to_scrimmage,
    ).toBe(true);
    const closed = await gauntlet(["policy", "scrimmage", second.id, "off", "--json"]);
    expect(JSON.parse(closed.stdout)).toMatchObject({ id: second.id, open_to_scrimmage: false });
    expect(await gauntlet(["policy", "scrimmage", "cli-bot", "maybe"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "gauntlet: scrimmage takes on or off, not 'maybe'\n",
    });
  });
});
