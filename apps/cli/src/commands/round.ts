// gauntlet round list --division D | --league L, round show ROUND
import type { Command } from "commander";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export const round: CommandGroup = {
  register(program) {
    const group = program
      .command("round")
      .description("Rounds: a division's scheduled sets of episodes");
    group
      .command("list")
      .description("List rounds of a division or a league, newest first")
      .option("--division <division>", "division id (div_…)")
      .option("--league <league>", "league id (league_…)")
      .option("--status <status>", "pending, running, completed or failed")
      .option("--limit <n>", "at most this many", "20")
      .action(
        async (
          opts: { division?: string; league?: string; status?: string; limit: string },
          cmd: Command,
        ) => {
          if (!opts.division && !opts.league)
            throw new CliError("round list needs --division D or --league L", EXIT.usage);
          const limit = parsePositiveInt(opts.limit, "--limit");
          const query = {
            ...(opts.division
              ? { division_id: await checkId("division", opts.division, "--division") }
              : {}),
            ...(opts.league ? { league_id: await checkId("league", opts.league, "--league") } : {}),
            ...(opts.status ? { status: opts.status as "pending" } : {}),
            limit,
          };
          const client = await clientOf(cmd);
          const page = await client.rounds.list(query);
          if (wantsJson(cmd)) return printJson(page);
          printTable(
            ["id", "division", "number", "status", "started", "completed"],
            page.entries.map((r) => [
              r.id,
              r.division.name,
              r.round_number,
              r.status,
              shortTime(r.started_at),
              shortTime(r.completed_at),
            ]),
            "no rounds",
          );
        },
      );
    group
      .command("show")
      .description("Show one round")
      .argument("<round>", "round id (round_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const round_id = await checkId("round", id, "ROUND");
        const client = await clientOf(cmd);
        const r = await client.rounds.get({ round_id });
        if (wantsJson(cmd)) return printJson(r);
        printFields([
          ["id", r.id],
          ["division", `${r.division.name} (${r.division.id})`],
          ["number", r.round_number],
          ["status", r.status],
          ["started", shortTime(r.started_at)],
          ["completed", shortTime(r.completed_at)],
          ["error", r.error],
        ]);
      });
  },
};
