// gauntlet league use [NAME|ID] [--clear]: the league commands use when given none,
// remembered per server beside the saved sign-in.
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { currentLeague, setCurrentLeague } from "../../names/current-league.ts";
import { leagueIdOf, serverKey } from "../../names/resolve.ts";
import { writeJson, writeNote } from "../../output.ts";

export interface UseOptions {
  /** The league to use (name or id); null shows the current one. */
  league: string | null;
  clear: boolean;
  json: boolean;
}

export async function runUse(options: UseOptions, { io, client }: Deps): Promise<void> {
  const server = serverKey(client);
  if (options.clear) {
    await setCurrentLeague(server, null);
    if (options.json) return writeJson(io, null);
    return writeNote(io, "no current league: commands need their league given");
  }
  if (options.league === null) {
    const current = await currentLeague(server);
    if (options.json) return writeJson(io, current);
    if (!current) return writeNote(io, "no current league (choose one: gauntlet league use NAME)");
    io.out.write(`${current.name} (${current.id})\n`);
    return;
  }
  const id = await leagueIdOf(client, options.league, "LEAGUE");
  const league = await client.leagues.get({ league_id: id });
  await setCurrentLeague(server, { id: league.id, name: league.name });
  if (options.json) return writeJson(io, { id: league.id, name: league.name });
  writeNote(io, `current league: ${league.name} (${league.id}); commands given no league use it`);
}

export function useCommand(
  parent: Command,
  factory: Factory,
  run: (options: UseOptions, deps: Deps) => Promise<void> = runUse,
): Command {
  return parent
    .command("use")
    .description("Choose the league commands use when given none (or show it)")
    .argument("[league]", "the league's name or id; none: show the current league")
    .option("--clear", "forget the current league")
    .addHelpText(
      "after",
      '\nExamples:\n  $ gauntlet league use "Spring League"\n  $ gauntlet leaderboard          # its top division\n  $ gauntlet submit my-bot\n  $ gauntlet league use --clear',
    )
    .action(async (league: string | undefined, opts: { clear?: boolean }, cmd: Command) => {
      if (opts.clear && league !== undefined)
        throw new CliError("league use: give a league or --clear, not both", EXIT.usage);
      const options = { league: league ?? null, clear: opts.clear === true, json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
