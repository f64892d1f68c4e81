// gauntlet reporter runs open REPORTER (--episode | --round | --division | --text)
import type { Command } from "commander";

import type { Gauntlet } from "@gauntlet/sdk";

import { checkId, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { divisionIdOf } from "../../names/resolve.ts";
import { writeFields, writeJson } from "../../output.ts";

/** What a run is about: one episode, round or division, or words. */
export type Subject =
  | { subject_type: "episode" | "round" | "division"; subject_id: string }
  | { subject_type: "text"; subject_text: string };

export interface RunsOpenOptions {
  reporterId: string;
  subject: Subject;
  json: boolean;
}

interface SubjectFlags {
  episode?: string;
  round?: string;
  division?: string;
  text?: string;
}

async function subjectOf(opts: SubjectFlags, client: Gauntlet): Promise<Subject> {
  const given = [opts.episode, opts.round, opts.division, opts.text].filter(
    (v) => v !== undefined,
  ).length;
  if (given !== 1)
    throw new CliError("give exactly one of --episode, --round, --division or --text", EXIT.usage);
  if (opts.episode !== undefined)
    return {
      subject_type: "episode",
      subject_id: await checkId("episodeRequest", opts.episode, "--episode"),
    };
  if (opts.round !== undefined)
    return { subject_type: "round", subject_id: await checkId("round", opts.round, "--round") };
  if (opts.division !== undefined)
    return {
      subject_type: "division",
      subject_id: await divisionIdOf(client, opts.division, "--division"),
    };
  return { subject_type: "text", subject_text: opts.text ?? "" };
}

export async function runRunsOpen(options: RunsOpenOptions, { io, client }: Deps): Promise<void> {
  const run = await client.reporterRuns.open({
    reporter_id: options.reporterId,
    body: options.subject,
  });
  if (options.json) return writeJson(io, run);
  writeFields(io, [
    ["id", run.id],
    ["reporter", run.reporter_id],
    [
      "subject",
      run.subject_type === "text"
        ? run.subject_text
        : `${run.subject_type} ${run.subject_id ?? ""}`,
    ],
  ]);
}

export function runsOpenCommand(
  parent: Command,
  factory: Factory,
  run: (options: RunsOpenOptions, deps: Deps) => Promise<void> = runRunsOpen,
): Command {
  return parent
    .command("open")
    .description("Open a run of a reporter over an episode, a round, a division or free text")
    .argument("<reporter>", "reporter id (rptr_…)")
    .option("--episode <episode>", "episode id (ereq_…)")
    .option("--round <round>", "round id (round_…)")
    .option("--division <division>", "division name or id (div_…)")
    .option("--text <text>", "a subject in words")
    .action(async (id: string, opts: SubjectFlags, cmd: Command) => {
      const reporterId = await checkId("reporter", id, "REPORTER");
      const deps = await depsOf(factory, cmd);
      const options = {
        reporterId,
        subject: await subjectOf(opts, deps.client),
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}
