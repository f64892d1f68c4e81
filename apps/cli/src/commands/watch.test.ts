// `gauntlet watch` without a process: what it parses its flags into, and the exit code its run
// reports. (The UI itself is tested in @gauntlet/tui; a test's streams are not a terminal.)
import { Command } from "commander";
import { describe, expect, it } from "vitest";

import { runInProcess } from "../../test/in-process.ts";
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
