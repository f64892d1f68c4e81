// gauntlet policy scrimmage POLICY on|off: whether others may seat a version of yours anywhere
// (evaluations and play sessions on any coworld), or only where you entered it.
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { resolveVersion } from "../../names/policy-version.ts";
import { writeJson, writeNote } from "../../output.ts";

export interface ScrimmageOptions {
  policy: string;
  open: boolean;
  json: boolean;
}

export async function runScrimmage(options: ScrimmageOptions, { io, client }: Deps): Promise<void> {
  const id = await resolveVersion(client, options.policy);
  const version = await client.policyVersions.update({
    policy_version_id: id,
    body: { open_to_scrimmage: options.open },
  });
  if (options.json) return writeJson(io, version);
  writeNote(
    io,
    `${version.name} v${version.version}: ${
      version.open_to_scrimmage
        ? "open to scrimmage (anyone may seat it anywhere)"
        : "plays only where you entered it"
    }`,
  );
}

export function scrimmageCommand(
  parent: Command,
  factory: Factory,
  run: (options: ScrimmageOptions, deps: Deps) => Promise<void> = runScrimmage,
): Command {
  return parent
    .command("scrimmage")
    .description(
      "Let others seat a version of yours anywhere (on), or only where you entered it (off)",
    )
    .argument("<policy>", "NAME (your newest version), NAME:vN, or a policy version id")
    .argument("<on|off>", "on: open to scrimmage; off: only its leagues and tournaments")
    .action(async (policy: string, state: string, _opts: unknown, cmd: Command) => {
      if (state !== "on" && state !== "off")
        throw new CliError(`scrimmage takes on or off, not '${state}'`, EXIT.usage);
      await run({ policy, open: state === "on", json: wantsJson(cmd) }, await depsOf(factory, cmd));
    });
}
