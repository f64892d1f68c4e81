// The root help drawn from the command table (commands/index.ts) is the real commands' help,
// and a command line loads only the group it names.
import { Help } from "commander";
import { describe, expect, it } from "vitest";

import { memoryIO } from "../io.ts";
import { buildProgram, run } from "../run.ts";
import { commandEntries } from "./index.ts";

const factory = () => ({
  io: memoryIO(),
  client: () => Promise.reject(new Error("help needs no client")),
});

async function output(
  argv: readonly string[],
): Promise<{ code: number; out: string; err: string }> {
  const f = factory();
  const code = await run(argv, f);
  return { code, out: f.io.stdout(), err: f.io.stderr() };
}

describe("the command table", () => {
  it("has each real command's name, root help term and description, in order", async () => {
    const full = await buildProgram({ exitCode: 0 }, factory());
    const help = new Help();
    expect(
      commandEntries.map((e) => ({ name: e.name, term: e.term, description: e.description })),
    ).toEqual(
      full.commands.map((c) => ({
        name: c.name(),
        term: help.subcommandTerm(c),
        description: c.description(),
      })),
    );
  });

  it.each([[[]], [["--help"]], [["-h", "league"]], [["help"]], [["--json", "--help"]]])(
    "draws the root help for %j as the whole program does",
    async (argv) => {
      const f = factory();
      (await buildProgram({ exitCode: 0 }, f)).outputHelp();
      expect((await output(argv)).out).toBe(f.io.stdout());
    },
  );

  it("suggests a command for a mistyped one", async () => {
    expect(await output(["leaderbord"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("did you mean leaderboard?") as unknown,
    });
  });

  it("loads only the named command's group", async () => {
    const names = async (argv: string[]) =>
      (await buildProgram({ exitCode: 0 }, factory(), argv)).commands.map((c) => c.name());
    expect(await names(["leaderboard", "--help"])).toEqual(["leaderboard"]);
    expect(await names(["--server", "http://x", "help", "submissions"])).toEqual([
      "submit",
      "submissions",
      "memberships",
    ]);
    expect(await names(["completion", "bash"])).toHaveLength(commandEntries.length);
  });
});
