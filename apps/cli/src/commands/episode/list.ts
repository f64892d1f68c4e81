// gauntlet episode list [--division D] [--round R] [--status S] [--mine] [--policy P] [--player P] [--limit N]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { checkId, parsePositiveInt, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { divisionIdOf, playerIdOf, policyIdOf } from "../../names/resolve.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";
import { isMine, mineOf, outcomeOf, seatName } from "./seats-view.ts";

export interface ListOptions {
  query: NonNullable<InputOf<"listEpisodeRequests">>;
  /** A policy's id or name (resolved before the list is read). */
  policy?: string;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const query = { ...options.query };
  if (options.policy !== undefined)
    query.policy_id = await policyIdOf(client, options.policy, "--policy");
  const page = await client.episodeRequests.list(query);
  if (options.json) return writeJson(io, page);
  const mine = await mineOf(client);
  writeTable(
    io,
    ["id", "players", "scores", "result", "created"],
    page.entries.map((e) => [
      e.id,
      [...e.participants]
        .sort((a, b) => a.position - b.position)
        .map((seat) => `${seatName(seat)}${isMine(seat, mine) ? "*" : ""}`)
        .join(" vs "),
      e.scores.map((s) => s.score).join(" "),
      outcomeOf(e),
      shortTime(e.created_at),
    ]),
    "no episodes",
  );
}

interface Flags {
  division?: string;
  round?: string;
  status?: string;
  mine?: boolean;
  policy?: string;
  player?: string;
  limit: string;
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List episodes, newest first")
    .option("--division <division>", "the division's name or id")
    .option("--round <round>", "round id (round_…)")
    .option("--status <status>", "pending, submitted, running, completed, failed or cancelled")
    .option("--mine", "only episodes in which one of your policies or players had a seat")
    .option("--policy <policy>", "only episodes of this policy (its id or name), any version")
    .option("--player <player>", "only episodes of this player of yours (its name or id)")
    .option("--limit <n>", "at most this many", "20")
    .action(async (opts: Flags, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const query = {
        ...(opts.division
          ? { division_id: await divisionIdOf(deps.client, opts.division, "--division") }
          : {}),
        ...(opts.round ? { round_id: await checkId("round", opts.round, "--round") } : {}),
        // The server names the statuses it knows (422 → one line); the CLI does not repeat them.
        ...(opts.status ? { status: opts.status as "pending" } : {}),
        ...(opts.mine ? { mine: true } : {}),
        ...(opts.player
          ? { player_id: await playerIdOf(deps.client, opts.player, "--player") }
          : {}),
        limit: parsePositiveInt(opts.limit, "--limit"),
      };
      const policy = opts.policy?.trim();
      await run({ query, ...(policy ? { policy } : {}), json: wantsJson(cmd) }, deps);
    });
}
