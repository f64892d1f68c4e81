// gauntlet division list --league L [--archived], division show DIVISION [--league L]: each verb
// options -> run(options, {io, client}).
import type { Command } from "commander";

import { wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { divisionIdOf, leagueOrCurrent } from "../names/resolve.ts";
import { writeFields, writeJson, writeTable } from "../output.ts";
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

export interface DivisionShowOptions {
  divisionId: string;
  json: boolean;
}

/** One division, and how it works as the commissioner that runs it describes it. */
export async function runDivisionShow(
  options: DivisionShowOptions,
  { io, client }: Deps,
): Promise<void> {
  const d = await client.divisions.get({ division_id: options.divisionId });
  if (options.json) return writeJson(io, d);
  const how = d.commissioner_description;
  writeFields(io, [
    ["id", d.id],
    ["name", d.name],
    ["league", `${d.league.name} (${d.league.id})`],
    ["level", d.level],
    ["type", d.type],
    ["description", d.description],
    ["rounds", how.round_schedule],
    ["structure", how.round_structure],
    ["standings", how.leaderboard_rules],
    ["scoring", how.scoring_mechanics],
    ["next round", how.next_round],
  ]);
  const changes = how.changelog ?? [];
  if (changes.length > 0) {
    io.out.write("\nChanges\n");
    writeTable(
      io,
      ["date", "change"],
      changes.map((c) => [c.date, c.title]),
    );
  }
}

export function divisionShowCommand(
  parent: Command,
  factory: Factory,
  run: (options: DivisionShowOptions, deps: Deps) => Promise<void> = runDivisionShow,
): Command {
  return parent
    .command("show")
    .description("Show a division and how its rounds, standings and scoring work")
    .argument("<division>", "the division's name or id")
    .option(
      "--league <league>",
      "the league whose division it is, when a name is in several (default: the current league)",
    )
    .action(async (division: string, opts: { league?: string }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const divisionId = await divisionIdOf(deps.client, division, "DIVISION", opts.league);
      await run({ divisionId, json: wantsJson(cmd) }, deps);
    });
}

export const division: CommandGroup = {
  register(program, _state, factory) {
    const group = program.command("division").description("Divisions: the tiers of a league");
    divisionListCommand(group, factory);
    divisionShowCommand(group, factory);
  },
};
