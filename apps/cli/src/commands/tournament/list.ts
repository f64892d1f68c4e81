// gauntlet tournament list LEAGUE
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
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
    .argument("<league>", "league id (league_…)")
    .action(async (league: string, _opts: unknown, cmd: Command) => {
      const options = { leagueId: await checkId("league", league, "LEAGUE"), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
