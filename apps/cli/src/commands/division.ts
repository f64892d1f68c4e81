// gauntlet division list --league L
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { printJson, printTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export const division: CommandGroup = {
  register(program) {
    const group = program.command("division").description("Divisions: the tiers of a league");
    group
      .command("list")
      .description("List a league's divisions, top first")
      .requiredOption("--league <league>", "league id (league_…)")
      .option("--archived", "include archived divisions")
      .action(async (opts: { league: string; archived?: boolean }, cmd: Command) => {
        const league_id = await checkId("league", opts.league, "--league");
        const client = await clientOf(cmd);
        const divisions = await client.divisions.list({
          league_id,
          ...(opts.archived ? { include_archived: true } : {}),
        });
        if (wantsJson(cmd)) return printJson(divisions);
        printTable(
          ["id", "name", "level", "type"],
          divisions.map((d) => [d.id, d.name, d.level, d.type]),
          "no divisions",
        );
      });
  },
};
