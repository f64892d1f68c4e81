// `gauntlet watch` without a process: what it parses its flags into, and the exit code its run
// reports. (The UI itself is tested in @gauntlet/tui; a test's streams are not a terminal.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";

import { runInProcess } from "../../test/in-process.ts";
import { setCurrentLeague } from "../names/current-league.ts";
import { watchCommand, type WatchOptions } from "./watch.ts";

describe("gauntlet watch", () => {
  it("passes --server, --league and --division on, and sets the exit code its run returns", async () => {
    let got: WatchOptions | null = null;
    const state = { exitCode: 0 };
    const program = new Command("gauntlet").option("--server <url>").exitOverride();
    watchCommand(program, state, (options) => {
      got = options;
      return Promise.resolve(7);
    });
    await program.parseAsync(
      ["--server", "http://127.0.0.1:9", "watch", "--league", "Spring", "--division", "Premier"],
      { from: "user" },
    );
    expect(got).toEqual({ server: "http://127.0.0.1:9", league: "Spring", division: "Premier" });
    expect(state.exitCode).toBe(7);
  });

  it("without --league starts on the current league of that server", async () => {
    const home = mkdtempSync(join(tmpdir(), "gauntlet-watch-"));
    vi.stubEnv("XDG_CONFIG_HOME", home);
    try {
      const league = { id: "league_00000000-0000-4000-8000-000000000001", name: "Spring" };
      await setCurrentLeague("http://127.0.0.1:9", league);
      let got: WatchOptions | null = null;
      const program = new Command("gauntlet").option("--server <url>").exitOverride();
      watchCommand(program, { exitCode: 0 }, (options) => {
        got = options;
        return Promise.resolve(0);
      });
      await program.parseAsync(["--server", "http://127.0.0.1:9", "watch"], { from: "user" });
      expect(got).toEqual({ server: "http://127.0.0.1:9", league: league.id, division: null });
    } finally {
      vi.unstubAllEnvs();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("without flags leaves the choice to the UI", async () => {
    let got: WatchOptions | null = null;
    const program = new Command("gauntlet").option("--server <url>").exitOverride();
    watchCommand(program, { exitCode: 0 }, (options) => {
      got = options;
      return Promise.resolve(0);
    });
    await program.parseAsync(["watch"], { from: "user" });
    expect(got).toEqual({ server: null, league: null, division: null });
  });

  it("exits 2 when standard input and output are not a terminal", async () => {
    const result = await runInProcess(["watch"], { url: "http://127.0.0.1:9", token: null });
    expect(result.code).toBe(2);
  });
});
