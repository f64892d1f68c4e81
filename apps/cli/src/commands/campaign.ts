// gauntlet campaign show|migrate [--apply]
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { note, printFields, printJson, printTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export const campaign: CommandGroup = {
  register(program) {
    const group = program
      .command("campaign")
      .description("The campaign board of a league: its cells and the rounds that moved them");

    group
      .command("show")
      .description("Show the board: geometry, territory per player and the latest captures")
      .argument("<league>", "league id (league_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const board = await client.campaign.get({
          league_id: await checkId("league", id, "LEAGUE"),
        });
        if (wantsJson(cmd)) return printJson(board);
        printFields([
          ["league", board.league_id],
          ["geometry", `${board.geometry.width}×${board.geometry.height}`],
          ["unowned", board.cells.filter((c) => c.owner_player_id === null).length],
          ["captures", board.history.length],
        ]);
        printTable(
          ["player", "cells"],
          board.territory.map((t) => [t.player_name ?? t.player_id, t.cells]),
          "no territory held yet",
        );
      });

    group
      .command("migrate")
      .description("Re-carve the board to the league's current geometry (a dry run unless --apply)")
      .argument("<league>", "league id (league_…)")
      .option("--apply", "perform the migration instead of previewing it")
      .action(async (id: string, opts: { apply?: boolean }, cmd: Command) => {
        const client = await clientOf(cmd);
        const report = await client.campaign.migrate({
          league_id: await checkId("league", id, "LEAGUE"),
          body: { dry_run: !opts.apply },
        });
        if (wantsJson(cmd)) return printJson(report);
        printFields([
          ["from", `${report.from.width}×${report.from.height} (${report.cells_before} cells)`],
          ["to", `${report.to.width}×${report.to.height} (${report.cells_after} cells)`],
          ["history", report.history_entries],
        ]);
        printTable(
          ["player", "cells before", "cells after"],
          [
            ...new Set([
              ...Object.keys(report.territory_before),
              ...Object.keys(report.territory_after),
            ]),
          ].map((p) => [p, report.territory_before[p] ?? 0, report.territory_after[p] ?? 0]),
          "no territory held",
        );
        note(report.applied ? "migrated" : "dry run: nothing changed (use --apply to migrate)");
      });
  },
};
