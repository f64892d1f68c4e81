// gauntlet watch: the live terminal UI (@gauntlet/tui), loaded only when asked for.
import type { Command } from "commander";

import { globals } from "../context.ts";
import type { CommandGroup } from "./group.ts";

export const watch: CommandGroup = {
  register(program, state) {
    program
      .command("watch")
      .description(
        "Watch a league live in the terminal: standings, rounds and events as they happen",
      )
      .option("--league <league>", "start on this league (league_…)")
      .option("--division <division>", "start on this division (div_…)")
      .addHelpText(
        "after",
        "\nKeys: arrows or j/k move, Tab switches pane, Enter opens a detail, Esc goes back, / filters, ? shows help, q quits.",
      )
      .action(async (opts: { league?: string; division?: string }, cmd: Command) => {
        // Loaded only here, so that every other command starts without React and Ink.
        const tui = await import("@gauntlet/tui");
        const { server } = globals(cmd);
        state.exitCode = await tui.runWatch({
          ...(server ? { server } : {}),
          ...(opts.league ? { league: opts.league } : {}),
          ...(opts.division ? { division: opts.division } : {}),
        });
      });
  },
};
