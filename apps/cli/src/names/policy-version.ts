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

/** What the demo league names the coworld's baseline players' policies: `demo-greedy`. */
const DEMO_PREFIX = "demo-";

/**
 * A play session's opponent: a version id as it is; one of your policies (NAME or NAME:vN) as
 * typed, for the server to seat; else the newest version (or vN) open to scrimmage of a policy
 * named `demo-NAME`, or NAME — so a baseline player of the demo league plays by its coworld's
 * name for it (`greedy`). Several owners with such a policy is a usage error listing them.
 */
export async function resolveOpponent(
  client: Gauntlet,
  ref: string,
  label: string,
): Promise<string> {
  const { uuidPattern } = await import("@gauntlet/core");
  const typed = ref.trim();
  if (uuidPattern.test(typed)) return typed;
  const match = /^(.+?)(?::v?(\d+))?$/.exec(typed);
  const name = match?.[1] ?? typed;
  const wanted = match?.[2] === undefined ? null : Number(match[2]);
  const mine = await client.policyVersions.search({ name_exact: name, mine: true, limit: 1 });
  if (mine.entries.length > 0) return typed;
  // The demo's baseline first: anyone may name a policy `greedy` and open it to scrimmage, and a
  // newcomer typing the demo's name would otherwise meet theirs.
  const names = name.startsWith(DEMO_PREFIX) ? [name] : [`${DEMO_PREFIX}${name}`, name];
  for (const candidate of names) {
    const found = await client.policyVersions.search({ name_exact: candidate, limit: 500 });
    const open = found.entries.filter(
      (v) => v.open_to_scrimmage && (wanted === null || v.version === wanted),
    );
    const owners = new Set(open.map((v) => v.owner_user_id));
    if (owners.size > 1)
      throw new CliError(
        `${label}: ${owners.size} owners have a policy named '${candidate}' open to scrimmage (${open.map((v) => `${v.id} of ${v.owner_user_id}`).join(", ")}); give the version id`,
        EXIT.usage,
      );
    const [newest] = [...open].sort((a, b) => b.version - a.version);
    if (newest) return newest.id;
  }
  const also = names.length > 1 ? ` or '${names[0] ?? ""}'` : "";
  throw new CliError(
    `${label}: no policy '${name}'${also} of yours or open to scrimmage${wanted === null ? "" : ` with a version v${wanted}`} (see gauntlet policy list)`,
    EXIT.notFound,
  );
}
