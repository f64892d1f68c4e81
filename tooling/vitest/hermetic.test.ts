// The preset's own home, as a test (and the programs it starts) sees it: nothing of the
// developer's, but npm's cache, so `npx` finds what it downloaded before.
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { HOME_VARIABLES, outsideTestHome, TEST_HOME } from "./hermetic.ts";

const home = process.env[TEST_HOME] ?? "";

describe("a test run's home", () => {
  it("is a temporary directory that HOME and every XDG directory point into", () => {
    expect(home).toMatch(/gauntlet-test-home-/);
    expect(outsideTestHome(process.env)).toEqual([]);
    expect(homedir()).toBe(home);
    expect(process.env.XDG_CONFIG_HOME).toBe(join(home, ".config"));
  });

  it("is the home of the programs a test starts", () => {
    const seen = execFileSync(
      process.execPath,
      [
        "-e",
        "console.log(JSON.stringify([require('os').homedir(), process.env.XDG_CONFIG_HOME, process.env.XDG_STATE_HOME]))",
      ],
      { encoding: "utf8" },
    );
    expect(JSON.parse(seen)).toEqual([home, join(home, ".config"), join(home, ".local/state")]);
  });

  it("keeps npm's cache outside it, so npx does not download again", () => {
    expect(process.env.npm_config_cache).toBeDefined();
    expect(process.env.npm_config_cache?.startsWith(home)).toBe(false);
  });
});

describe("outsideTestHome", () => {
  const inside = {
    [TEST_HOME]: "/tmp/gauntlet-test-home-x",
    HOME: "/tmp/gauntlet-test-home-x",
    XDG_CONFIG_HOME: "/tmp/gauntlet-test-home-x/.config",
    XDG_CACHE_HOME: "/tmp/gauntlet-test-home-x/.cache",
    XDG_DATA_HOME: "/tmp/gauntlet-test-home-x/.local/share",
    XDG_STATE_HOME: "/tmp/gauntlet-test-home-x/.local/state",
  };

  it("names each variable that points at the developer's files", () => {
    expect(outsideTestHome(inside)).toEqual([]);
    expect(outsideTestHome({ ...inside, XDG_CONFIG_HOME: "/home/dev/.config" })).toEqual([
      "XDG_CONFIG_HOME",
    ]);
    expect(outsideTestHome({ ...inside, HOME: "/tmp/gauntlet-test-home-x/../dev" })).toEqual([
      "HOME",
    ]);
    expect(outsideTestHome({ ...inside, XDG_CACHE_HOME: undefined })).toEqual(["XDG_CACHE_HOME"]);
  });

  it("names them all when the run has no home of its own", () => {
    expect(outsideTestHome({ HOME: "/home/dev" })).toEqual([TEST_HOME, ...HOME_VARIABLES]);
  });
});
