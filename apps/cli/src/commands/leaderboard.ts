// gauntlet leaderboard DIVISION: the division's standings.
import type { Command } from "commander";

import { wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { divisionOrTop } from "../names/resolve.ts";
import { writeJson, writeNote, writeTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";
import { LEADERBOARD_HEADERS, leaderboardCells, leaderboardFootnote } from "./leaderboard-rows.ts";

export interface LeaderboardOptions {
  divisionId: string;
  json: boolean;
}

export type LeaderboardRun = (options: LeaderboardOptions, deps: Deps) => Promise<void>;

export async function runLeaderboard(
  options: LeaderboardOptions,
  { io, client }: Deps,
): Promise<void> {
  const rows = await client.divisions.leaderboard({
    division_id: options.divisionId,
    include_recent_rounds: true,
  });
  if (options.json) return writeJson(io, rows);
  writeTable(
    io,
    LEADERBOARD_HEADERS,
    (rows ?? []).map(leaderboardCells),
    "no standings yet in this division",
  );
  const footnote = leaderboardFootnote(rows ?? []);
  if (footnote) writeNote(io, footnote);
}

/** Adds `leaderboard` to `parent`; `run` is replaceable so tests can read the parsed options. */
export function leaderboardCommand(
  parent: Command,
  factory: Factory,
  run: LeaderboardRun = runLeaderboard,
): Command {
  return parent
    .command("leaderboard")
    .description(
      "A division's standings: rank (and the ranks it could hold), player, score with its 95% interval, form, rounds, recent ranks",
    )
    .argument(
      "[division]",
      "the division's name or id (default: the top division of --league or the current league)",
    )
    .option("--league <league>", "the league whose division it is (name or id)")
    .addHelpText(
      "after",
      "\nSCORE is the strength a fit of the division's whole record gives the row, on\nthe division's scale (Elo, score or OpenSkill), and 95% INTERVAL the interval\naround it; rows are ranked by it. COULD RANK lists the ranks a row could hold\nat 95%, or says 'settled' (or 'tied 2–3') once its rank is. P>NEXT is the\nchance it is truly above the next row. FORM is the online rating, which moves\na game at a time. RECENT RANKS lists the player's rank in its latest rounds,\nnewest first.\n\nExample:\n  $ gauntlet leaderboard div_… --json | jq '.[] | {rank, player_name, score}'",
    )
    .action(async (id: string | undefined, opts: { league?: string }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        divisionId: await divisionOrTop(deps, id, opts.league, "DIVISION"),
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}

export const leaderboard: CommandGroup = {
  register(program, _state, factory) {
    leaderboardCommand(program, factory);
  },
};
