// gauntlet policy list [--name] [--mine] [--limit]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface ListOptions {
  name: string | null;
  mine: boolean;
  limit: number;
  json: boolean;
}

export async function runList(options: ListOptions, { io, client }: Deps): Promise<void> {
  const versions = await client.policyVersions.list({
    ...(options.name ? { name: options.name } : {}),
    ...(options.mine ? { mine: true } : {}),
    limit: options.limit,
  });
  if (options.json) return writeJson(io, versions);
  writeTable(
    io,
    ["id", "name", "version", "created"],
    versions.map((v) => [v.id, v.policy.name, `v${v.version}`, shortTime(v.created_at)]),
    "no policy versions",
  );
}

export function listCommand(
  parent: Command,
  factory: Factory,
  run: (options: ListOptions, deps: Deps) => Promise<void> = runList,
): Command {
  return parent
    .command("list")
    .description("List policy versions (yours with --mine)")
    .option("--name <name>", "only this policy")
    .option("--mine", "only yours")
    .option("--limit <n>", "at most this many", "50")
    .action(async (opts: { name?: string; mine?: boolean; limit: string }, cmd: Command) => {
      const options = {
        name: opts.name ?? null,
        mine: opts.mine === true,
        // Unchecked here as before: the API's 422 names a bad limit.
        limit: Number(opts.limit),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}
