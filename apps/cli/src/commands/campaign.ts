// gauntlet campaign show|migrate [--apply]: each verb options -> run(options, {io, client}).
import type { Command } from "commander";

import { wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { leagueOrCurrent } from "../names/resolve.ts";
import { writeFields, writeJson, writeNote, writeTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export interface CampaignOptions {
  leagueId: string;
  /** migrate only: perform it rather than preview it. */
  apply: boolean;
  json: boolean;
}

type Run = (options: CampaignOptions, deps: Deps) => Promise<void>;

export const runShow: Run = async (options, { io, client }) => {
  const board = await client.campaign.get({ league_id: options.leagueId });
  if (options.json) return writeJson(io, board);
  writeFields(io, [
    ["league", board.league_id],
    ["geometry", `${board.geometry.width}×${board.geometry.height}`],
    ["unowned", board.cells.filter((c) => c.owner_player_id === null).length],
    ["captures", board.history.length],
  ]);
  writeTable(
    io,
    ["player", "cells"],
    board.territory.map((t) => [t.player_name ?? t.player_id, t.cells]),
    "no territory held yet",
  );
};

export const runMigrate: Run = async (options, { io, client }) => {
  const report = await client.campaign.migrate({
    league_id: options.leagueId,
    body: { dry_run: !options.apply },
  });
  if (options.json) return writeJson(io, report);
  writeFields(io, [
    ["from", `${report.from.width}×${report.from.height} (${report.cells_before} cells)`],
    ["to", `${report.to.width}×${report.to.height} (${report.cells_after} cells)`],
    ["history", report.history_entries],
  ]);
  writeTable(
    io,
    ["player", "cells before", "cells after"],
    [
      ...new Set([...Object.keys(report.territory_before), ...Object.keys(report.territory_after)]),
    ].map((p) => [p, report.territory_before[p] ?? 0, report.territory_after[p] ?? 0]),
    "no territory held",
  );
  writeNote(io, report.applied ? "migrated" : "dry run: nothing changed (use --apply to migrate)");
};

async function parse(deps: Deps, id: string | undefined, apply: boolean | undefined, cmd: Command) {
  return {
    leagueId: await leagueOrCurrent(deps, id, "LEAGUE"),
    apply: apply === true,
    json: wantsJson(cmd),
  };
}

export function showCommand(parent: Command, factory: Factory, run: Run = runShow): Command {
  return parent
    .command("show")
    .description("Show the board: geometry, territory per player and the latest captures")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .action(async (id: string | undefined, _opts: unknown, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      await run(await parse(deps, id, false, cmd), deps);
    });
}

export function migrateCommand(parent: Command, factory: Factory, run: Run = runMigrate): Command {
  return parent
    .command("migrate")
    .description("Re-carve the board to the league's current geometry (a dry run unless --apply)")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .option("--apply", "perform the migration instead of previewing it")
    .action(async (id: string | undefined, opts: { apply?: boolean }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      await run(await parse(deps, id, opts.apply, cmd), deps);
    });
}

export const campaign: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("campaign")
      .description("The campaign board of a league: its cells and the rounds that moved them");
    showCommand(group, factory);
    migrateCommand(group, factory);
  },
};
