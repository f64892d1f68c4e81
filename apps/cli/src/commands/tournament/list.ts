// gauntlet tournament list LEAGUE
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  leagueId: string;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const rows = await client.tournaments.list({ league_id: options.leagueId });
  if (options.json) return writeJson(io, rows);
  writeTable(
    io,
    ["id", "name", "format", "status", "entrants", "winner", "created"],
    rows.map((t) => [
      t.id,
      t.name,
      t.format,
      t.status,
      t.entrants.length,
      t.winner?.display_name ?? "",
      shortTime(t.created_at),
    ]),
    "no tournaments",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List a league's tournaments, newest first")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .action(async (league: string | undefined, _opts: unknown, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: await leagueOrCurrent(deps, league, "LEAGUE"),
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
