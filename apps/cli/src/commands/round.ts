// gauntlet round list --division D | --league L, round show ROUND: each verb
// options -> run(options, {io, client}).
import type { Command } from "commander";

import type { RoundCommissioner } from "@gauntlet/core";
import type { InputOf } from "@gauntlet/sdk";

import { checkId, parsePositiveInt, wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";
import { divisionIdOf, leagueOrCurrent } from "../names/resolve.ts";
import { shortTime, visible, writeFields, writeJson, writeTable } from "../output.ts";
import type { CommandGroup } from "./group.ts";
import { idVerbCommand } from "./id-verb.ts";

export interface RoundListOptions {
  query: NonNullable<InputOf<"listRounds">>;
  json: boolean;
}

export async function runRoundList(options: RoundListOptions, { io, client }: Deps) {
  const page = await client.rounds.list(options.query);
  if (options.json) return writeJson(io, page);
  writeTable(
    io,
    ["id", "division", "number", "commissioner", "status", "started", "completed"],
    page.entries.map((r) => [
      r.id,
      r.division.name,
      r.round_number,
      r.commissioner.kind === "builtin" ? r.commissioner.key : r.commissioner.runnable_id,
      r.status,
      shortTime(r.started_at),
      shortTime(r.completed_at),
    ]),
    "no rounds",
  );
}

interface ListFlags {
  division?: string;
  league?: string;
  status?: string;
  limit: string;
}

export function roundListCommand(
  parent: Command,
  factory: Factory,
  run: (options: RoundListOptions, deps: Deps) => Promise<void> = runRoundList,
): Command {
  return parent
    .command("list")
    .description("List rounds of a division or a league, newest first")
    .option("--division <division>", "the division's name or id")
    .option(
      "--league <league>",
      "the league's name or id (default: the current league, `league use`)",
    )
    .option("--status <status>", "pending, running, completed or failed")
    .option("--limit <n>", "at most this many", "20")
    .action(async (opts: ListFlags, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const limit = parsePositiveInt(opts.limit, "--limit");
      const query = {
        ...(opts.division
          ? {
              division_id: await divisionIdOf(
                deps.client,
                opts.division,
                "--division",
                opts.league,
              ),
            }
          : { league_id: await leagueOrCurrent(deps, opts.league, "--league") }),
        // The server names the statuses it knows (422 → one line); the CLI does not repeat them.
        ...(opts.status ? { status: opts.status as "pending" } : {}),
        limit,
      };
      await run({ query, json: wantsJson(cmd) }, deps);
    });
}

export interface RoundShowOptions {
  roundId: string;
  json: boolean;
}

/** A round's episodes shown at most (a round of a large division has hundreds). */
const EPISODES_SHOWN = 50;

export async function runRoundShow(options: RoundShowOptions, { io, client }: Deps) {
  const r = await client.rounds.get({ round_id: options.roundId });
  if (options.json) return writeJson(io, r);
  const episodes = await client.episodeRequests.list({
    round_id: r.id,
    limit: EPISODES_SHOWN,
  });
  writeFields(io, [
    ["id", r.id],
    ["division", `${r.division.name} (${r.division.id})`],
    ["number", r.round_number],
    ["commissioner", commissionerLabel(r.commissioner)],
    ["status", r.status],
    ["started", shortTime(r.started_at)],
    ["completed", shortTime(r.completed_at)],
    [
      "episodes",
      episodes.next_cursor
        ? `the first ${episodes.entries.length} below (more: gauntlet episode list --round ${r.id})`
        : episodes.entries.length,
    ],
    ["error", r.error],
  ]);
  if (r.results.length > 0) {
    io.out.write("\nResults\n");
    writeTable(
      io,
      ["rank", "player", "version", "score"],
      [...r.results]
        .sort((a, b) => a.rank - b.rank)
        .map((x) => [x.rank, x.player?.name, versionLabel(x.policy_version), x.score]),
    );
  }
  if (episodes.entries.length > 0) {
    // As the round's commissioner asked for them: its tags name each episode's part in the round.
    io.out.write("\nEpisodes\n");
    writeTable(
      io,
      ["episode", "status", "players", "scores", "tags"],
      episodes.entries.map((e) => [
        e.id,
        e.status,
        e.participants.map((p) => p.player_name ?? p.policy_name).join(" v "),
        e.scores.map((s) => s.score).join(" "),
        Object.entries(e.tags)
          .map(([k, v]) => `${k}=${v}`)
          .join(" "),
      ]),
    );
  }
  if (r.commissioner_log)
    io.out.write(`\nCommissioner log\n${visible(r.commissioner_log.trimEnd())}\n`);
}

function versionLabel(v: { name: string; version: number } | null): string {
  return v ? `${v.name}:v${v.version}` : "-";
}

/** Who ran a round: a built-in key, or a coworld's commissioner runnable and version. */
export function commissionerLabel(c: RoundCommissioner): string {
  return c.kind === "builtin"
    ? `${c.key} (built-in)`
    : `${c.runnable_id} (coworld ${c.coworld_id}${c.coworld_version ? ` v${c.coworld_version}` : ""})`;
}

export function roundShowCommand(
  parent: Command,
  factory: Factory,
  run: (options: RoundShowOptions, deps: Deps) => Promise<void> = runRoundShow,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "show",
    description: "Show one round",
    argument: ["<round>", "round id (round_…)"],
    options: async (id) => ({ roundId: await checkId("round", id, "ROUND") }),
  });
}

export const round: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("round")
      .description("Rounds: a division's scheduled sets of episodes");
    roundListCommand(group, factory);
    roundShowCommand(group, factory);
  },
};
