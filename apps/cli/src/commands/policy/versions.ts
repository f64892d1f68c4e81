// gauntlet policy versions NAME: newest first.
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeJson, writeTable } from "../../output.ts";

export interface VersionsOptions {
  name: string;
  json: boolean;
}

export async function runVersions(options: VersionsOptions, { io, client }: Deps): Promise<void> {
  const versions = await client.policyVersions.list({ name: options.name });
  if (options.json) return writeJson(io, versions);
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  writeTable(
    io,
    ["version", "id", "created"],
    sorted.map((v) => [`v${v.version}`, v.id, shortTime(v.created_at)]),
    `no policy named ${options.name}`,
  );
}

export function versionsCommand(
  parent: Command,
  factory: Factory,
  run: (options: VersionsOptions, deps: Deps) => Promise<void> = runVersions,
): Command {
  return parent
    .command("versions")
    .description("The versions of one policy, newest first")
    .argument("<name>", "the policy's name")
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      await run({ name, json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
