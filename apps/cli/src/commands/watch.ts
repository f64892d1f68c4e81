// gauntlet watch: the live terminal UI (@gauntlet/tui), loaded only when asked for. The UI owns
// the terminal (keys in, frames out), so its run takes the options alone, not the IOStreams.
import { Help, type Command } from "commander";

import { clientOf, globals } from "../context.ts";
import { currentLeague } from "../names/current-league.ts";
import { serverKey } from "../names/resolve.ts";
import type { CommandGroup, RunState } from "./group.ts";

export interface WatchOptions {
  /** --server, else the UI resolves it as the SDK does. */
  server: string | null;
  league: string | null;
  division: string | null;
}

/** Runs the UI until the user quits; resolves with the exit code. */
export async function runWatch(options: WatchOptions): Promise<number> {
  // Loaded only here, so that every other command starts without React and Ink.
  const tui = await import("@gauntlet/tui");
  return tui.runWatch({
    ...(options.server ? { server: options.server } : {}),
    ...(options.league ? { league: options.league } : {}),
    ...(options.division ? { division: options.division } : {}),
  });
}

/** The league `league use` remembers for this command's server, if any (no request made). */
async function currentLeagueId(cmd: Command): Promise<string | null> {
  try {
    return (await currentLeague(serverKey(await clientOf(cmd))))?.id ?? null;
  } catch {
    return null; // no server configured: the UI says so itself
  }
}

export function watchCommand(
  program: Command,
  state: RunState,
  run: (options: WatchOptions) => Promise<number> = runWatch,
): Command {
  const command = program
    .command("watch")
    .description("Watch a league live in the terminal: standings, rounds and events as they happen")
    .option(
      "--league <league>",
      "start on this league, its name or id (default: the current league, `league use`)",
    )
    .option("--division <division>", "start on this division, its name or id")
    .addHelpText(
      "after",
      "\nKeys: arrows or j/k move, Tab switches pane, Enter opens a detail,\nEsc goes back, / filters, ? shows help, q quits.",
    )
    .action(async (opts: { league?: string; division?: string }, cmd: Command) => {
      const options = {
        server: globals(cmd).server ?? null,
        league: opts.league ?? (opts.division ? null : await currentLeagueId(cmd)),
        division: opts.division ?? null,
      };
      state.exitCode = await run(options);
    });
  // The UI draws frames, never JSON: its help does not offer the global --json.
  return command.configureHelp({
    ...program.configureHelp(),
    visibleGlobalOptions: (cmd: Command) =>
      Object.assign(new Help(), { showGlobalOptions: true })
        .visibleGlobalOptions(cmd)
        .filter((o) => o.long !== "--json"),
  });
}

export const watch: CommandGroup = {
  register(program, state) {
    watchCommand(program, state);
  },
};
