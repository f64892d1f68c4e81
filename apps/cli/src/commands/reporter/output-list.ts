// gauntlet reporter output list (--run RUN | --reporter REPORTER)
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface OutputListOptions {
  /** The outputs of one run, or of every run of one reporter. */
  of: { run: string } | { reporter: string };
  json: boolean;
}

export async function runOutputList(
  options: OutputListOptions,
  { io, client }: Deps,
): Promise<void> {
  const rows =
    "run" in options.of
      ? await client.reporterRuns.output({ reporter_run_id: options.of.run })
      : await client.reporters.listOutputs({ reporter_id: options.of.reporter });
  if (options.json) return writeJson(io, rows);
  writeTable(
    io,
    ["id", "run", "name", "type", "bytes", "created"],
    rows.map((o) => [
      o.id,
      o.reporter_run_id,
      o.name,
      o.type,
      o.size_bytes,
      shortTime(o.created_at),
    ]),
    "no outputs",
  );
}

export function outputListCommand(
  parent: Command,
  factory: Factory,
  run: (options: OutputListOptions, deps: Deps) => Promise<void> = runOutputList,
): Command {
  return parent
    .command("list")
    .description("List the outputs of a run (--run) or of a reporter (--reporter)")
    .option("--run <run>", "reporter run id (rrun_…)")
    .option("--reporter <reporter>", "reporter id (rptr_…)")
    .action(async (opts: { run?: string; reporter?: string }, cmd: Command) => {
      if ((opts.run === undefined) === (opts.reporter === undefined))
        throw new CliError("give exactly one of --run or --reporter", EXIT.usage);
      const options = {
        of:
          opts.run !== undefined
            ? { run: await checkId("reporterRun", opts.run, "--run") }
            : { reporter: await checkId("reporter", opts.reporter ?? "", "--reporter") },
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
