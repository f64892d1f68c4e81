// gauntlet league trigger-round LEAGUE [--division D]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote, writeTable } from "../../output.ts";

export interface TriggerRoundOptions {
  leagueId: string;
  /** Only this division; null for every division. */
  divisionId: string | null;
  json: boolean;
}

export async function runTriggerRound(
  options: TriggerRoundOptions,
  { io, client }: Deps,
): Promise<void> {
  const result = await client.leagues.triggerRound({
    league_id: options.leagueId,
    body: options.divisionId ? { division_id: options.divisionId } : {},
  });
  if (options.json) return writeJson(io, result);
  writeTable(
    io,
    ["round", "division", "number", "status"],
    result.rounds.map((r) => [r.id, r.division.name, r.round_number, r.status]),
    "no round started",
  );
  for (const skip of result.skipped) writeNote(io, `skipped ${skip.division_id}: ${skip.reason}`);
}

export function triggerRoundCommand(
  parent: Command,
  factory: Factory,
  run: (options: TriggerRoundOptions, deps: Deps) => Promise<void> = runTriggerRound,
): Command {
  return parent
    .command("trigger-round")
    .description("Start a round now in every division (or one)")
    .argument("<league>", "league id (league_…)")
    .option("--division <division>", "only this division (div_…)")
    .action(async (id: string, opts: { division?: string }, cmd: Command) => {
      const options = {
        leagueId: await checkId("league", id, "LEAGUE"),
        divisionId: opts.division ? await checkId("division", opts.division, "--division") : null,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
