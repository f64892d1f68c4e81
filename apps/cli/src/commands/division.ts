// gauntlet division list --league L [--archived]: options -> run(options, {io, client}).
import type { Command } from "commander";

import { wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { leagueOrCurrent } from "../names/resolve.ts";
import { writeJson, writeTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export interface DivisionListOptions {
  leagueId: string;
  archived: boolean;
  json: boolean;
}

export async function runDivisionList(
  options: DivisionListOptions,
  { io, client }: Deps,
): Promise<void> {
  const divisions = await client.divisions.list({
    league_id: options.leagueId,
    ...(options.archived ? { include_archived: true } : {}),
  });
  if (options.json) return writeJson(io, divisions);
  writeTable(
    io,
    ["id", "name", "level", "type"],
    divisions.map((d) => [d.id, d.name, d.level, d.type]),
    "no divisions",
  );
}

export function divisionListCommand(
  parent: Command,
  factory: Factory,
  run: (options: DivisionListOptions, deps: Deps) => Promise<void> = runDivisionList,
): Command {
  return parent
    .command("list")
    .description("List a league's divisions, top first")
    .option(
      "--league <league>",
      "the league's name or id (default: the current league, `league use`)",
    )
    .option("--archived", "include archived divisions")
    .action(async (opts: { league?: string; archived?: boolean }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        leagueId: await leagueOrCurrent(deps, opts.league, "--league"),
        archived: opts.archived === true,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}

export const division: CommandGroup = {
  register(program, _state, factory) {
    const group = program.command("division").description("Divisions: the tiers of a league");
    divisionListCommand(group, factory);
  },
};
