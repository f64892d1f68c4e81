// gauntlet episode list [--division D] [--round R] [--status S] [--mine] [--policy P] [--player P] [--limit N]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { checkId, parsePositiveInt, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
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
  if (options.policy !== undefined) query.policy_id = await policyIdOf(client, options.policy);
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A policy by id, or by name when exactly one policy the caller can see has it. */
async function policyIdOf(client: Deps["client"], policy: string): Promise<string> {
  if (UUID.test(policy)) return policy;
  const found = await client.policyVersions.search({ name_exact: policy, limit: 500 });
  const ids = [...new Set(found.entries.map((v) => v.policy_id))];
  if (ids.length === 1 && ids[0] !== undefined) return ids[0];
  if (ids.length === 0) throw new CliError(`--policy: no policy named '${policy}'`, EXIT.notFound);
  throw new CliError(
    `--policy: ${ids.length} policies are named '${policy}' (${ids.join(", ")}); give one id`,
    EXIT.usage,
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
    .option("--division <division>", "division id (div_…)")
    .option("--round <round>", "round id (round_…)")
    .option("--status <status>", "pending, submitted, running, completed, failed or cancelled")
    .option("--mine", "only episodes in which one of your policies or players had a seat")
    .option("--policy <policy>", "only episodes of this policy (its id or name), any version")
    .option("--player <player>", "only episodes of this player (ply_…)")
    .option("--limit <n>", "at most this many", "20")
    .action(async (opts: Flags, cmd: Command) => {
      const query = {
        ...(opts.division
          ? { division_id: await checkId("division", opts.division, "--division") }
          : {}),
        ...(opts.round ? { round_id: await checkId("round", opts.round, "--round") } : {}),
        // The server names the statuses it knows (422 → one line); the CLI does not repeat them.
        ...(opts.status ? { status: opts.status as "pending" } : {}),
        ...(opts.mine ? { mine: true } : {}),
        ...(opts.player ? { player_id: await checkId("player", opts.player, "--player") } : {}),
        limit: parsePositiveInt(opts.limit, "--limit"),
      };
      const policy = opts.policy?.trim();
      await run(
        { query, ...(policy ? { policy } : {}), json: wantsJson(cmd) },
        await depsOf(factory, cmd),
      );
    });
}
