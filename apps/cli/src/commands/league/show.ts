// gauntlet league show LEAGUE
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { writeJson } from "../../output.ts";
import { writeLeague } from "./show-league.ts";

export interface ShowOptions {
  leagueId: string;
  json: boolean;
}

export async function runShow(options: ShowOptions, { io, client }: Deps): Promise<void> {
  const found = await client.leagues.get({ league_id: options.leagueId });
  if (options.json) return writeJson(io, found);
  writeLeague(io, found);
}

export function showCommand(
  parent: Command,
  factory: Factory,
  run: (options: ShowOptions, deps: Deps) => Promise<void> = runShow,
): Command {
  return parent
    .command("show")
    .description("Show one league")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .action(async (id: string | undefined, _opts: unknown, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = { leagueId: await leagueOrCurrent(deps, id, "LEAGUE"), json: wantsJson(cmd) };
      await run(options, deps);
    });
}
