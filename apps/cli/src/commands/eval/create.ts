// gauntlet eval create: start an evaluation (a roster over N episodes), optionally --wait for it.
import type { Command } from "commander";

import type { CreateExperienceRequest } from "@gauntlet/core";

import { checkId, parsePositiveInt, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { dim } from "../../terminal.ts";
import { mineOf } from "../episode/seats-view.ts";
import { progressOf, writeEpisodes, writeRecord, writeRequest } from "./view.ts";
import { waitForEnd } from "./wait.ts";

export interface CreateOptions {
  body: CreateExperienceRequest;
  /** Follow the request until it ends; fail unless it completed. */
  wait: boolean;
  json: boolean;
}

interface Flags {
  coworld?: string;
  league?: string;
  division?: string;
  variant?: string;
  policy: string[];
  top: string[];
  random?: boolean;
  episodes: string;
  notes?: string;
  wait?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The `target` of the request: ids pass as ids, anything else is a league or division name. */
async function targetOf(opts: Flags): Promise<CreateExperienceRequest["target"]> {
  const given = [opts.coworld, opts.league, opts.division].filter((v) => v !== undefined);
  if (given.length === 0)
    throw new CliError("give where to play: --coworld, --league or --division", EXIT.usage);
  if (opts.coworld !== undefined && given.length > 1)
    throw new CliError(
      "--coworld plays on the coworld alone: not with --league or --division",
      EXIT.usage,
    );
  const target: NonNullable<CreateExperienceRequest["target"]> = {};
  if (opts.coworld !== undefined)
    target.coworld_id = await checkId("coworld", opts.coworld, "--coworld");
  if (opts.league !== undefined) {
    if (opts.league.startsWith("league_"))
      target.league_id = await checkId("league", opts.league, "--league");
    else target.league_name = opts.league;
  }
  if (opts.division !== undefined) {
    if (opts.division.startsWith("div_"))
      target.division_id = await checkId("division", opts.division, "--division");
    else target.division_name = opts.division;
  }
  if (opts.variant !== undefined) target.variant_id = opts.variant;
  return target;
}

function rosterOf(opts: Flags): CreateExperienceRequest["roster"] {
  const roster: CreateExperienceRequest["roster"] = [
    ...opts.policy.map((policy_ref) => ({ player: { policy_ref } })),
    ...opts.top.map((n) => ({ player: { top_n: parsePositiveInt(n, "--top") } })),
    ...(opts.random ? [{ player: { random: true } }] : []),
  ];
  if (roster.length === 0)
    throw new CliError("give the roster: --policy (repeatable), --top N or --random", EXIT.usage);
  return roster;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const { json } = options;
  const created = await client.experienceRequests.create({ body: options.body });
  if (!options.wait) {
    if (json) return writeJson(io, created);
    writeRequest(io, created);
    return;
  }
  if (!json)
    writeNote(
      io,
      dim(
        `${created.id}: ${created.episode_count} episodes queued; waiting for them (Ctrl-C stops waiting, the evaluation goes on)`,
        io.err,
      ),
    );
  const ended = await waitForEnd(client, created.id, (r) => {
    if (!json) writeNote(io, `${r.id}: ${r.status}, ${progressOf(r)} episodes settled`);
  });
  if (json) writeJson(io, ended);
  else {
    writeRequest(io, ended);
    writeEpisodes(io, ended.episodes);
    writeRecord(io, ended.episodes, await mineOf(client));
  }
  if (ended.status !== "completed")
    throw new CliError(
      `evaluation ${ended.id} ended ${ended.status}${ended.error ? `: ${ended.error}` : ""}`,
      EXIT.failure,
    );
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Start an evaluation: the roster's episodes are queued at once")
    .option("--coworld <coworld>", "play on this coworld (cow_…)")
    .option(
      "--league <league>",
      "play on this league's game, with its members for --top/--random (id or name)",
    )
    .option("--division <division>", "as --league, with this division's standings (id or name)")
    .option("--variant <variant>", "the coworld's variant")
    .option(
      "--policy <ref>",
      "a seat for this policy: a version id, name (newest version) or name:vN; repeatable",
      collect,
      [],
    )
    .option(
      "--top <n>",
      "a seat for one of the division's N best champions, drawn per episode; repeatable",
      collect,
      [],
    )
    .option("--random", "a seat for a random competing champion, drawn per episode")
    .option("--episodes <n>", "how many episodes (1–100)", "10")
    .option("--notes <text>", "a note kept with the request")
    .option("--wait", "follow the request until it ends; exit 1 unless it completed")
    .addHelpText(
      "after",
      `
Seats are filled in the order given: every --policy, then every --top, then
--random. With --wait, progress goes to standard error and the ended request to
standard output.

Examples:
  gauntlet eval create --league "Spring League" --policy my-bot --top 3 --wait
  gauntlet eval create --coworld cow_… --policy my-bot --policy rival:v2 --json`,
    )
    .action(async (opts: Flags, cmd: Command) => {
      const body: CreateExperienceRequest = {
        target: await targetOf(opts),
        roster: rosterOf(opts),
        num_episodes: parsePositiveInt(opts.episodes, "--episodes"),
        ...(opts.notes !== undefined ? { notes: opts.notes } : {}),
      };
      const options = { body, wait: opts.wait === true, json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}
