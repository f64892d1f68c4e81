// gauntlet league show LEAGUE
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
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
    .argument("<league>", "league id (league_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = { leagueId: await checkId("league", id, "LEAGUE"), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
