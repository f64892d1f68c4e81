// gauntlet watch: the live terminal UI (@gauntlet/tui), loaded only when asked for.
import type { Command } from "commander";
import { globals } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import type { CommandGroup } from "./group.ts";

interface TuiModule {
  runWatch(options: { server?: string; token?: string | null; league?: string; division?: string }): Promise<number>;
}

// A variable specifier keeps TypeScript from requiring the package at build time: it is an
// optional companion that may not be installed.
const TUI_PACKAGE = "@gauntlet/tui";

async function loadTui(): Promise<TuiModule | null> {
  try {
    return (await import(TUI_PACKAGE)) as TuiModule;
  } catch (error) {
    if (error instanceof Error && "code" in error && (error.code === "ERR_MODULE_NOT_FOUND" || error.code === "MODULE_NOT_FOUND")) return null;
    throw error;
  }
}

export const watch: CommandGroup = {
  register(program, state) {
    program
      .command("watch")
      .description("Watch a league live in the terminal: standings, rounds and events as they happen")
      .option("--league <league>", "start on this league (league_…)")
      .option("--division <division>", "start on this division (div_…)")
      .addHelpText("after", "\nNeeds the terminal UI package: npm install -g @gauntlet/tui")
      .action(async (opts: { league?: string; division?: string }, cmd: Command) => {
        const tui = await loadTui();
        if (!tui) throw new CliError("gauntlet watch needs the terminal UI, which is not installed: npm install -g @gauntlet/tui", EXIT.failure);
        const { server } = globals(cmd);
        state.exitCode = await tui.runWatch({ ...(server ? { server } : {}), ...(opts.league ? { league: opts.league } : {}), ...(opts.division ? { division: opts.division } : {}) });
      });
  },
};
