// gauntlet eval create|list|get|episodes|cancel: hosted evaluations (experience requests), a
// roster played over N episodes by the same runners as league rounds.
import type { Command } from "commander";

import type {
  CreateExperienceRequest,
  ExperienceRequestDetail,
  ExperienceRequestRow,
} from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import { dim } from "../terminal.ts";
import type { CommandGroup } from "./group.ts";

const ENDED = new Set<ExperienceRequestRow["status"]>(["completed", "failed", "cancelled"]);
/** Between re-reads while waiting: the live events say when to read, this is the fallback. */
const POLL_MS = 2_000;

interface CreateOptions {
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
async function targetOf(opts: CreateOptions): Promise<CreateExperienceRequest["target"]> {
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

function rosterOf(opts: CreateOptions): CreateExperienceRequest["roster"] {
  const roster: CreateExperienceRequest["roster"] = [
    ...opts.policy.map((policy_ref) => ({ player: { policy_ref } })),
    ...opts.top.map((n) => ({ player: { top_n: parsePositiveInt(n, "--top") } })),
    ...(opts.random ? [{ player: { random: true } }] : []),
  ];
  if (roster.length === 0)
    throw new CliError("give the roster: --policy (repeatable), --top N or --random", EXIT.usage);
  return roster;
}

const progressOf = (r: ExperienceRequestRow) =>
  `${r.completed_count + r.failed_count + r.cancelled_count}/${r.episode_count}`;

function printRequest(r: ExperienceRequestDetail): void {
  printFields([
    ["id", r.id],
    ["status", r.status],
    ["coworld", `${r.coworld_name} ${r.coworld_version} (${r.coworld_id})`],
    ["variant", r.variant_id],
    ["league", r.league_id],
    ["division", r.division_id],
    [
      "episodes",
      `${r.episode_count}: ${r.completed_count} completed, ${r.running_count} running, ${r.pending_count + r.submitted_count} queued, ${r.failed_count} failed, ${r.cancelled_count} cancelled`,
    ],
    ["notes", r.notes],
    ["error", r.error],
    ["created", shortTime(r.created_at)],
    ["completed", shortTime(r.completed_at)],
  ]);
}

function printEpisodes(episodes: ExperienceRequestDetail["episodes"]): void {
  printTable(
    ["episode", "status", "scores", "created"],
    episodes.map((e) => [
      e.id,
      e.status,
      e.scores.map((s) => s.score).join(" "),
      shortTime(e.created_at),
    ]),
    "no episodes",
  );
}

/**
 * Reads the request until it has ended: again on each of its live events
 * (`experience-request:{id}`), and every POLL_MS in case the socket cannot be had.
 */
async function waitForEnd(
  client: Gauntlet,
  id: string,
  onProgress: (r: ExperienceRequestDetail) => void,
): Promise<ExperienceRequestDetail> {
  let last = await client.experienceRequests.get({ experience_request_id: id });
  if (ENDED.has(last.status)) return last;
  const info = await client.events.info().catch(() => null);
  return new Promise((resolve, reject) => {
    let reading = false;
    let again = false;
    const read = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      client.experienceRequests.get({ experience_request_id: id }).then(
        (current) => {
          reading = false;
          if (current.status !== last.status || progressOf(current) !== progressOf(last))
            onProgress(current);
          last = current;
          if (ENDED.has(current.status)) finish();
          else if (again) {
            again = false;
            read();
          }
        },
        (error: unknown) => {
          stop();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
    const timer = setInterval(read, POLL_MS);
    const sub = client.events.subscribe([`experience-request:${id}`], {
      ...(info ? { sinceSeq: info.last_seq } : {}),
      onEvent: read,
      // The poll carries on whatever happens to the socket.
      onError: () => undefined,
    });
    const stop = () => {
      clearInterval(timer);
      sub.close();
    };
    const finish = () => {
      stop();
      resolve(last);
    };
    read();
  });
}

export const evaluation: CommandGroup = {
  register(program) {
    const group = program
      .command("eval")
      .description("Hosted evaluations: play a roster of policies over N episodes on the runners")
      .addHelpText(
        "after",
        `
Examples:
  gauntlet eval create --league "Spring League" --policy my-bot --top 1 --episodes 20 --wait
  gauntlet eval create --coworld cow_… --policy my-bot:v3 --policy rival --episodes 5
  gauntlet eval list
  gauntlet eval get xreq_…
  gauntlet eval episodes xreq_… --json
  gauntlet eval cancel xreq_…`,
      );

    group
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
Seats are filled in the order given: every --policy, then every --top, then --random.
With --wait, progress goes to standard error and the ended request to standard output.

Examples:
  gauntlet eval create --league "Spring League" --policy my-bot --top 3 --episodes 20 --wait
  gauntlet eval create --coworld cow_… --policy my-bot --policy rival:v2 --json`,
      )
      .action(async (opts: CreateOptions, cmd: Command) => {
        const body: CreateExperienceRequest = {
          target: await targetOf(opts),
          roster: rosterOf(opts),
          num_episodes: parsePositiveInt(opts.episodes, "--episodes"),
          ...(opts.notes !== undefined ? { notes: opts.notes } : {}),
        };
        const client = await clientOf(cmd);
        const json = wantsJson(cmd);
        const created = await client.experienceRequests.create({ body });
        if (!opts.wait) {
          if (json) return printJson(created);
          printRequest(created);
          return;
        }
        if (!json)
          note(
            dim(
              `${created.id}: ${created.episode_count} episodes queued; waiting for them (Ctrl-C stops waiting, the evaluation goes on)`,
              process.stderr,
            ),
          );
        const ended = await waitForEnd(client, created.id, (r) => {
          if (!json) note(`${r.id}: ${r.status}, ${progressOf(r)} episodes settled`);
        });
        if (json) printJson(ended);
        else {
          printRequest(ended);
          printEpisodes(ended.episodes);
        }
        if (ended.status !== "completed")
          throw new CliError(
            `evaluation ${ended.id} ended ${ended.status}${ended.error ? `: ${ended.error}` : ""}`,
            EXIT.failure,
          );
      });

    group
      .command("list")
      .description("List your evaluations, newest first")
      .option("--mine", "only your own (for admins, who see everyone's)")
      .option("--limit <n>", "at most this many (1–200)", "20")
      .option("--offset <n>", "skip this many", "0")
      .action(async (opts: { mine?: boolean; limit: string; offset: string }, cmd: Command) => {
        const offset = Number(opts.offset);
        if (!Number.isInteger(offset) || offset < 0)
          throw new CliError(
            `--offset: expected 0 or a positive whole number, got '${opts.offset}'`,
            EXIT.usage,
          );
        const client = await clientOf(cmd);
        const page = await client.experienceRequests.list({
          limit: parsePositiveInt(opts.limit, "--limit"),
          offset,
          ...(opts.mine ? { mine: true } : {}),
        });
        if (wantsJson(cmd)) return printJson(page);
        printTable(
          ["id", "status", "coworld", "settled", "created"],
          page.entries.map((r) => [
            r.id,
            r.status,
            r.coworld_name,
            progressOf(r),
            shortTime(r.created_at),
          ]),
          "no evaluations",
        );
        if (page.total_count > page.offset + page.entries.length)
          note(
            dim(
              `${page.total_count} in all: --offset ${page.offset + page.entries.length} for more`,
              process.stderr,
            ),
          );
      });

    group
      .command("get")
      .description("Show an evaluation, its counts by state and its episodes")
      .argument("<id>", "evaluation id (xreq_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const experience_request_id = await checkId("experienceRequest", id, "ID");
        const client = await clientOf(cmd);
        const r = await client.experienceRequests.get({ experience_request_id });
        if (wantsJson(cmd)) return printJson(r);
        printRequest(r);
        printEpisodes(r.episodes);
      });

    group
      .command("episodes")
      .description("List an evaluation's episodes (download one with `gauntlet episode bundle`)")
      .argument("<id>", "evaluation id (xreq_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const experience_request_id = await checkId("experienceRequest", id, "ID");
        const client = await clientOf(cmd);
        const episodes = await client.experienceRequests.episodes({ experience_request_id });
        if (wantsJson(cmd)) return printJson(episodes);
        printEpisodes(episodes);
      });

    group
      .command("cancel")
      .description("Cancel an evaluation: queued episodes are withdrawn, running ones finish")
      .argument("<id>", "evaluation id (xreq_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const experience_request_id = await checkId("experienceRequest", id, "ID");
        const client = await clientOf(cmd);
        const r = await client.experienceRequests.cancel({ experience_request_id });
        if (wantsJson(cmd)) return printJson(r);
        printRequest(r);
      });
  },
};
