// gauntlet leaderboard DIVISION: the division's standings.
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { printJson, printTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";

function score(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export const leaderboard: CommandGroup = {
  register(program) {
    program
      .command("leaderboard")
      .description("A division's standings: rank, player, rating or score, rounds, recent form")
      .argument("<division>", "division id (div_…; see `gauntlet division list --league L`)")
      .addHelpText(
        "after",
        "\nRecent form lists the player's rank in its latest rounds, newest first.\n\nExample:\n  $ gauntlet leaderboard div_… --json | jq '.[] | {rank, player_name, score}'",
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
          ["rank", "player", "score", "rounds", "episodes", "form"],
          (rows ?? []).map((r) => [
            r.rank,
            r.player_name,
            score(r.score),
            r.rounds_played,
            r.episodes_played,
            r.recent_rounds
              .slice(0, 5)
              .map((x) => (x.rank === null ? "·" : String(x.rank)))
              .join(" "),
          ]),
          "no standings yet in this division",
        );
      });
  },
};
