// POLICY on the command line is a version id (UUID), NAME (its newest version of yours) or
// NAME:vN; only your own policies are looked up by name.
import type { Gauntlet } from "@gauntlet/sdk";

import { CliError, EXIT } from "../exit-codes.ts";

export async function resolveVersion(client: Gauntlet, policy: string): Promise<string> {
  const { uuidPattern } = await import("@gauntlet/core");
  if (uuidPattern.test(policy)) return policy;
  const match = /^(.+?)(?::v?(\d+))?$/.exec(policy);
  const name = match?.[1] ?? policy;
  const wanted = match?.[2] === undefined ? null : Number(match[2]);
  const versions = await client.policyVersions.list({ name, mine: true });
  if (versions.length === 0)
    throw new CliError(
      `POLICY: you have no policy named '${name}' (see gauntlet policy list --mine)`,
      EXIT.notFound,
    );
  const chosen =
    wanted === null
      ? [...versions].sort((a, b) => b.version - a.version)[0]
      : versions.find((v) => v.version === wanted);
  if (!chosen)
    throw new CliError(
      `POLICY: ${name} has no version v${wanted} (it has ${versions.map((v) => `v${v.version}`).join(", ")})`,
      EXIT.notFound,
    );
  return chosen.id;
}
