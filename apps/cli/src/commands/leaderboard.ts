// gauntlet leaderboard DIVISION: the division's standings.
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { note, printJson, printTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";
import { LEADERBOARD_HEADERS, leaderboardCells, leaderboardFootnote } from "./leaderboard-rows.ts";

export const leaderboard: CommandGroup = {
  register(program) {
    program
      .command("leaderboard")
      .description(
        "A division's standings: rank (and the ranks it could hold), player, rating or score with its 95% interval, rounds, recent form",
      )
      .argument("<division>", "division id (div_…; see `gauntlet division list --league L`)")
      .addHelpText(
        "after",
        "\nCOULD BE lists the ranks a row could hold at 95% when that is more than one; ±95% is half its\ninterval; P>NEXT is the chance it is truly above the next row. Recent form lists the player's\nrank in its latest rounds, newest first.\n\nExample:\n  $ gauntlet leaderboard div_… --json | jq '.[] | {rank, player_name, score}'",
      )
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const division_id = await checkId("division", id, "DIVISION");
        const client = await clientOf(cmd);
        const rows = await client.divisions.leaderboard({
          division_id,
          include_recent_rounds: true,
        });
        if (wantsJson(cmd)) return printJson(rows);
        printTable(
          LEADERBOARD_HEADERS,
          (rows ?? []).map(leaderboardCells),
          "no standings yet in this division",
        );
        const footnote = leaderboardFootnote(rows ?? []);
        if (footnote) note(footnote);
      });
  },
};
